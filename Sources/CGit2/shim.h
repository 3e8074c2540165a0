#ifndef CAIRN_CGIT2_SHIM_H
#define CAIRN_CGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/stream.h>
#include <git2/sys/repository.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/mempack.h>

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

/// git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path)
static inline int cgit2_set_ssl_cert_locations(const char *file, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}

/// git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, type, size)
static inline int cgit2_set_cache_object_limit(git_object_t type, size_t size) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, type, size);
}

// Cairn's TCP stream (Sources/Git/Remote/SocketStream.swift), registered with
// git_stream_register(GIT_STREAM_STANDARD, ...). Its first four fields are laid out as
// libgit2 1.5's own socket stream (git_socket_stream, src/libgit2/streams/socket.h):
// libgit2's SSH transport creates its connection with git_socket_stream_new, which returns
// the registered stream, and hands libssh2 the socket it reads at that place. The fields
// after `socket` are Cairn's.
typedef struct {
    git_stream parent;
    char *host;
    char *port;
    int socket;
    /// How long a connect, read or write may make no progress, in milliseconds; 0: no limit.
    int timeout_ms;
    /// The fetch or push that opened the connection (its log's number).
    long opened_by;
    /// Whether the last call was a read: the next write begins a request.
    int reading;
    /// Whether the request being made is the first of a later fetch or push than the one
    /// that opened the connection: a request on a kept connection.
    int kept_request;
    /// Bytes read since the request being made began.
    long answered;
} cgit2_socket_stream;

#endif
