#ifndef CAIRN_CGIT2_SHIM_H
#define CAIRN_CGIT2_SHIM_H

#include <git2.h>

// Swift cannot call C variadic functions, and git_libgit2_opts is one.
// These wrappers give each option Cairn uses a fixed signature.

/// git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path)
static inline int cgit2_set_search_path(git_config_level_t level, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}

/// git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, enabled)
static inline int cgit2_enable_fsync_gitdir(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, enabled);
}

/// git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled)
static inline int cgit2_enable_strict_hash_verification(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}

/// git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, enabled)
static inline int cgit2_enable_strict_object_creation(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, enabled);
}

/// git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, type, size)
static inline int cgit2_set_cache_object_limit(git_object_t type, size_t size) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, type, size);
}

#endif
