#ifndef CAIRN_EXECUTOR_HOOK_H
#define CAIRN_EXECUTOR_HOOK_H

/// Sets the Swift concurrency runtime's hook for the global executor
/// (`swift_task_enqueueGlobal_hook`, swift/Runtime/Concurrency.h) to `hook`, if no one set it
/// before: then every job the runtime would give its default pool of threads goes to `hook`.
/// Returns 1 when set, 0 when another hook was there. Referenced here by name, the hook is
/// found by the linker whether the runtime is a shared library or linked into the program
/// (`--static-swift-stdlib`), where it is not in the dynamic symbol table.
int cairn_set_global_enqueue_hook(void *hook);

#endif
