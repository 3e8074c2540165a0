// libgit2's start without the cost of the system's CA certificates.
//
// Debian's libgit2 1.5 is built with mbedTLS, and its git_libgit2_init parses every
// certificate of /etc/ssl/certs/ca-certificates.crt (about 140 of them, 200 KB): about 5 ms
// of CPU, in every process, whether or not it will ever open an https:// connection. Most
// of Cairn's commands (put, checkpoint, merge, status, a sync with a path remote) never do.
//
// libgit2 reads the file through mbedtls_x509_crt_parse_file (or _parse_path for a folder).
// With libgit2's shared library, this program defines those two functions too, and the
// dynamic linker binds libgit2's calls to a program's own definition first. With libgit2
// linked in from its archives (CGIT2_LINKED_STATICALLY, Package.swift), the linker sends
// them to __wrap_<name> instead (--wrap=<name>), and mbedTLS's own is __real_<name>. Either
// way, each passes the call on to mbedTLS's, except during cgit2_init_deferring_certificates:
// then it notes the location and returns an empty list. cgit2_load_deferred_certificates,
// called before the first connection (Sources/Git/Remote/SocketStream.swift), asks libgit2 to
// read that location through its own option, GIT_OPT_SET_SSL_CERT_LOCATIONS, which parses it
// the same way and installs it as the list its TLS connections verify against.
//
// Until then the list is empty, so a TLS connection made without the load fails its
// certificate check: never trusted by mistake. Locations that an app sets itself
// (GIT_OPT_SET_SSL_CERT_LOCATIONS) before the first connection are kept: the noted ones are
// then dropped unread. A libgit2 built with another TLS library never calls these
// functions; nothing is noted and nothing changes.
#define _GNU_SOURCE
#include "cgit2_setup.h"

#include <dlfcn.h>
#include <git2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct mbedtls_x509_crt;
typedef int (*parse_function)(struct mbedtls_x509_crt *, const char *);

static _Thread_local int deferring;
static _Thread_local int loading;
// Set when libgit2 reads locations that neither its start nor the load asked for: an app's
// own GIT_OPT_SET_SSL_CERT_LOCATIONS, which the load must not replace.
static volatile int located_elsewhere;
static char *deferred_file;
static char *deferred_folder;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result;

// One of mbedTLS's two readers, as libgit2 calls it: during libgit2's start, the location is
// noted in `slot` and an empty list returned; otherwise the call goes on to mbedTLS's `next`.
static int intercept(parse_function next, char **slot, struct mbedtls_x509_crt *chain,
                     const char *location) {
    if (deferring && location && !*slot) {
        *slot = strdup(location);
        if (*slot) return 0;
    }
    if (!deferring && !loading) located_elsewhere = 1;
    // -0x2400: MBEDTLS_ERR_X509_FEATURE_UNAVAILABLE; only reached if mbedTLS is not loaded.
    return next ? next(chain, location) : -0x2400;
}

#ifdef CGIT2_LINKED_STATICALLY
int __real_mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path);
int __real_mbedtls_x509_crt_parse_path(struct mbedtls_x509_crt *chain, const char *path);

int __wrap_mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path) {
    return intercept(__real_mbedtls_x509_crt_parse_file, &deferred_file, chain, path);
}

int __wrap_mbedtls_x509_crt_parse_path(struct mbedtls_x509_crt *chain, const char *path) {
    return intercept(__real_mbedtls_x509_crt_parse_path, &deferred_folder, chain, path);
}
#else
int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path) {
    parse_function next = (parse_function)dlsym(RTLD_NEXT, "mbedtls_x509_crt_parse_file");
    return intercept(next, &deferred_file, chain, path);
}

int mbedtls_x509_crt_parse_path(struct mbedtls_x509_crt *chain, const char *path) {
    parse_function next = (parse_function)dlsym(RTLD_NEXT, "mbedtls_x509_crt_parse_path");
    return intercept(next, &deferred_folder, chain, path);
}
#endif

int cgit2_init_deferring_certificates(void) {
    deferring = 1;
    int result = git_libgit2_init();
    deferring = 0;
    return result;
}

static void load(void) {
    if ((deferred_file || deferred_folder) && !located_elsewhere) {
        loading = 1;
        load_result = git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, deferred_file, deferred_folder);
        loading = 0;
        // As libgit2's own start: a list it cannot read leaves no error behind.
        if (load_result < 0) git_error_clear();
    }
    free(deferred_file);
    free(deferred_folder);
    deferred_file = NULL;
    deferred_folder = NULL;
}

int cgit2_load_deferred_certificates(void) {
    pthread_once(&load_once, load);
    return load_result;
}

int cgit2_certificates_deferred(void) {
    return (deferred_file != NULL || deferred_folder != NULL) && !located_elsewhere;
}

int cgit2_certificates_located_elsewhere(void) {
    return located_elsewhere;
}
