#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cspawn.h"

int cspawn_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno;
}

int cspawn_unnamed_file(const char *folder) {
    // In memory first: a file made on the disk's file system costs the server an inode for
    // every request (ext4 searches its bitmap for one not recently freed), a memory file none.
    int descriptor = memfd_create("cairn-stderr", MFD_CLOEXEC);
    if (descriptor >= 0 || errno != ENOSYS) return descriptor;
    descriptor = open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (descriptor >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return descriptor;
    // A file system without O_TMPFILE (overlayfs before Linux 6.6): a file made and unlinked
    // at once.
    char path[4096];
    int length = snprintf(path, sizeof path, "%s/.cairn-stderr-XXXXXX", folder);
    if (length < 0 || (size_t)length >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    descriptor = mkostemp(path, O_CLOEXEC);
    if (descriptor >= 0) unlink(path);
    return descriptor;
}

int cspawn_start(const char *path, char *const argv[], char *const envp[],
                 int input, int output, int error, int *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    const int reset[] = {SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM};
    for (size_t index = 0; index < sizeof reset / sizeof reset[0]; index++) sigaddset(&defaults, reset[index]);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, &empty);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &defaults);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, input, 0);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, output, 1);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, error, 2);
#if defined(__GLIBC__)
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}
