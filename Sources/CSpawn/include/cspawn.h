#ifndef CAIRN_CSPAWN_H
#define CAIRN_CSPAWN_H

// No system header here: what this module shows is its two functions, not glibc's types,
// which Swift's Glibc module owns. A pid is an int on Linux.

/// A pipe whose two ends close on exec: `fds[0]` reads, `fds[1]` writes. Returns 0, or the
/// errno of `pipe2`.
int cspawn_pipe(int fds[2]);

/// An unnamed file in memory (`memfd_create`), or on a kernel without it in `folder`
/// (`O_TMPFILE`, or on a file system without that a file made and unlinked at once), for
/// reading and writing, closed on exec, gone when its last descriptor closes. Returns its
/// descriptor, or -1 with `errno` set.
int cspawn_unnamed_file(const char *folder);

/// Starts `path` with `argv` and `envp` (NULL-terminated) by `posix_spawn`, which glibc runs
/// as a vfork: the parent's memory is not copied, however large the parent. The child's
/// stdin, stdout and stderr are `input`, `output` and `error`; every other descriptor is
/// closed; its signal mask is empty and the signals a server ignores or handles (SIGPIPE,
/// SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM) are at their
/// defaults. Returns 0 and the child's pid in `pid`, or an errno.
int cspawn_start(const char *path, char *const argv[], char *const envp[],
                 int input, int output, int error, int *pid);

#endif
