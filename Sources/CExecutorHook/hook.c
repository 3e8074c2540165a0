#include "executorhook.h"

#include <stddef.h>

extern void *swift_task_enqueueGlobal_hook;

int cairn_set_global_enqueue_hook(void *hook) {
    void *expected = NULL;
    return __atomic_compare_exchange_n(&swift_task_enqueueGlobal_hook, &expected, hook, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST);
}
