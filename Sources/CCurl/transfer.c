// libcurl as Cairn uses it: loaded at the first request (dlopen), its variadic
// curl_easy_setopt called with the right types, one request at a time per call.
#include "ccurl.h"
#include "curl_abi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if __has_include(<curl/curl.h>)
// libcurl's own header, where it is installed, checks every number of curl_abi.h.
#define CURL_DISABLE_DEPRECATION
#include <curl/curl.h>
#define CCURL_SAME(ours, theirs) _Static_assert((long)(ours) == (long)(theirs), #ours " differs from libcurl's " #theirs)
CCURL_SAME(CCURLE_OK, CURLE_OK);
CCURL_SAME(CCURLE_PEER_FAILED_VERIFICATION, CURLE_PEER_FAILED_VERIFICATION);
CCURL_SAME(CCURLE_SSL_CACERT_BADFILE, CURLE_SSL_CACERT_BADFILE);
CCURL_SAME(CCURLOPT_WRITEDATA, CURLOPT_WRITEDATA);
CCURL_SAME(CCURLOPT_URL, CURLOPT_URL);
CCURL_SAME(CCURLOPT_READDATA, CURLOPT_READDATA);
CCURL_SAME(CCURLOPT_ERRORBUFFER, CURLOPT_ERRORBUFFER);
CCURL_SAME(CCURLOPT_WRITEFUNCTION, CURLOPT_WRITEFUNCTION);
CCURL_SAME(CCURLOPT_POSTFIELDS, CURLOPT_POSTFIELDS);
CCURL_SAME(CCURLOPT_LOW_SPEED_LIMIT, CURLOPT_LOW_SPEED_LIMIT);
CCURL_SAME(CCURLOPT_LOW_SPEED_TIME, CURLOPT_LOW_SPEED_TIME);
CCURL_SAME(CCURLOPT_HTTPHEADER, CURLOPT_HTTPHEADER);
CCURL_SAME(CCURLOPT_CUSTOMREQUEST, CURLOPT_CUSTOMREQUEST);
CCURL_SAME(CCURLOPT_UPLOAD, CURLOPT_UPLOAD);
CCURL_SAME(CCURLOPT_FOLLOWLOCATION, CURLOPT_FOLLOWLOCATION);
CCURL_SAME(CCURLOPT_CAINFO, CURLOPT_CAINFO);
CCURL_SAME(CCURLOPT_MAXREDIRS, CURLOPT_MAXREDIRS);
CCURL_SAME(CCURLOPT_CONNECTTIMEOUT, CURLOPT_CONNECTTIMEOUT);
CCURL_SAME(CCURLOPT_CAPATH, CURLOPT_CAPATH);
CCURL_SAME(CCURLOPT_NOSIGNAL, CURLOPT_NOSIGNAL);
CCURL_SAME(CCURLOPT_INFILESIZE_LARGE, CURLOPT_INFILESIZE_LARGE);
CCURL_SAME(CCURLOPT_POSTFIELDSIZE_LARGE, CURLOPT_POSTFIELDSIZE_LARGE);
CCURL_SAME(CCURLOPT_SEEKFUNCTION, CURLOPT_SEEKFUNCTION);
CCURL_SAME(CCURLOPT_SEEKDATA, CURLOPT_SEEKDATA);
CCURL_SAME(CCURLOPT_PROTOCOLS, CURLOPT_PROTOCOLS);
CCURL_SAME(CCURLOPT_REDIR_PROTOCOLS, CURLOPT_REDIR_PROTOCOLS);
CCURL_SAME(CCURLOPT_PROTOCOLS_STR, CURLOPT_PROTOCOLS_STR);
CCURL_SAME(CCURLOPT_REDIR_PROTOCOLS_STR, CURLOPT_REDIR_PROTOCOLS_STR);
CCURL_SAME(CCURLINFO_RESPONSE_CODE, CURLINFO_RESPONSE_CODE);
CCURL_SAME(CCURL_GLOBAL_DEFAULT, CURL_GLOBAL_DEFAULT);
CCURL_SAME(CCURL_ERROR_SIZE, CURL_ERROR_SIZE);
CCURL_SAME(CCURL_SEEKFUNC_OK, CURL_SEEKFUNC_OK);
CCURL_SAME(CCURL_SEEKFUNC_CANTSEEK, CURL_SEEKFUNC_CANTSEEK);
CCURL_SAME(CCURLPROTO_HTTP, CURLPROTO_HTTP);
CCURL_SAME(CCURLPROTO_HTTPS, CURLPROTO_HTTPS);
_Static_assert(sizeof(ccurl_off_t) == sizeof(curl_off_t), "curl_off_t");
_Static_assert(sizeof(ccurl_option) == sizeof(CURLoption), "CURLoption");
_Static_assert(sizeof(ccurl_code) == sizeof(CURLcode), "CURLcode");
_Static_assert(sizeof(ccurl_info) == sizeof(CURLINFO), "CURLINFO");
#endif

/// The libcurl functions Cairn calls, found once.
static struct {
    ccurl_code (*global_init)(long);
    ccurl_handle *(*easy_init)(void);
    ccurl_code (*easy_setopt)(ccurl_handle *, ccurl_option, ...);
    ccurl_code (*easy_perform)(ccurl_handle *);
    ccurl_code (*easy_getinfo)(ccurl_handle *, ccurl_info, ...);
    void (*easy_cleanup)(ccurl_handle *);
    const char *(*easy_strerror)(ccurl_code);
    struct ccurl_slist *(*slist_append)(struct ccurl_slist *, const char *);
    void (*slist_free_all)(struct ccurl_slist *);
    int loaded;
    char failure[256];
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void *find(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL && curl.failure[0] == 0) {
        snprintf(curl.failure, sizeof curl.failure, "libcurl lacks %s", name);
    }
    return symbol;
}

static void load_curl(void) {
    // Debian and Ubuntu ship libcurl built on OpenSSL as libcurl.so.4 (libcurl4) and on
    // GnuTLS as libcurl-gnutls.so.4 (libcurl3-gnutls); either does.
    const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(curl.failure, sizeof curl.failure,
                 "libcurl (libcurl.so.4) cannot be loaded (%s); install it (Debian: apt-get install libcurl4)",
                 reason != NULL ? reason : "not found");
        return;
    }
    *(void **)&curl.global_init = find(library, "curl_global_init");
    *(void **)&curl.easy_init = find(library, "curl_easy_init");
    *(void **)&curl.easy_setopt = find(library, "curl_easy_setopt");
    *(void **)&curl.easy_perform = find(library, "curl_easy_perform");
    *(void **)&curl.easy_getinfo = find(library, "curl_easy_getinfo");
    *(void **)&curl.easy_cleanup = find(library, "curl_easy_cleanup");
    *(void **)&curl.easy_strerror = find(library, "curl_easy_strerror");
    *(void **)&curl.slist_append = find(library, "curl_slist_append");
    *(void **)&curl.slist_free_all = find(library, "curl_slist_free_all");
    if (curl.failure[0] != 0) return;
    ccurl_code started = curl.global_init(CCURL_GLOBAL_DEFAULT);
    if (started != CCURLE_OK) {
        snprintf(curl.failure, sizeof curl.failure, "libcurl did not start: %s", curl.easy_strerror(started));
        return;
    }
    curl.loaded = 1;
}

/// Takes an upload back to `offset`, when a server redirects it or libcurl sends it again.
static int rewind_upload(void *file, ccurl_off_t offset, int origin) {
    return fseeko(file, (off_t)offset, origin) == 0 ? CCURL_SEEKFUNC_OK : CCURL_SEEKFUNC_CANTSEEK;
}

static size_t pass_on(char *bytes, size_t size, size_t count, void *context) {
    void **pair = context;
    return ((ccurl_sink)pair[0])(bytes, size * count, pair[1]);
}

ccurl_outcome ccurl_perform(const ccurl_request *request, ccurl_sink sink, void *context,
                            long *status, char *error, size_t error_size) {
    pthread_once(&curl_once, load_curl);
    if (!curl.loaded) {
        snprintf(error, error_size, "%s", curl.failure);
        return CCURL_UNAVAILABLE;
    }
    FILE *upload = NULL;
    struct stat uploaded;
    if (request->upload_file != NULL) {
        upload = fopen(request->upload_file, "rb");
        if (upload == NULL || fstat(fileno(upload), &uploaded) != 0) {
            snprintf(error, error_size, "cannot read %s", request->upload_file);
            if (upload != NULL) fclose(upload);
            return CCURL_UNREADABLE_FILE;
        }
    }
    ccurl_handle *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(error, error_size, "libcurl could not start a transfer");
        if (upload != NULL) fclose(upload);
        return CCURL_TRANSFER_FAILED;
    }
    struct ccurl_slist *headers = NULL;
    for (size_t i = 0; i < request->header_count; i++) {
        headers = curl.slist_append(headers, request->headers[i]);
    }
    // libcurl asks before sending a large body; the servers Cairn talks to take it at once.
    headers = curl.slist_append(headers, "Expect:");
    char failure[CCURL_ERROR_SIZE] = {0};
    void *pair[2] = {(void *)sink, context};

    curl.easy_setopt(handle, CCURLOPT_URL, request->url);
    curl.easy_setopt(handle, CCURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CCURLOPT_ERRORBUFFER, failure);
    curl.easy_setopt(handle, CCURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(handle, CCURLOPT_MAXREDIRS, 10L);
    // Only HTTP and HTTPS, also where a server redirects to.
    if (curl.easy_setopt(handle, CCURLOPT_PROTOCOLS_STR, "http,https") != CCURLE_OK) {
        curl.easy_setopt(handle, CCURLOPT_PROTOCOLS, (long)(CCURLPROTO_HTTP | CCURLPROTO_HTTPS));
    }
    if (curl.easy_setopt(handle, CCURLOPT_REDIR_PROTOCOLS_STR, "http,https") != CCURLE_OK) {
        curl.easy_setopt(handle, CCURLOPT_REDIR_PROTOCOLS, (long)(CCURLPROTO_HTTP | CCURLPROTO_HTTPS));
    }
    if (request->timeout_seconds > 0) {
        curl.easy_setopt(handle, CCURLOPT_CONNECTTIMEOUT, request->timeout_seconds);
        curl.easy_setopt(handle, CCURLOPT_LOW_SPEED_LIMIT, 1L);
        curl.easy_setopt(handle, CCURLOPT_LOW_SPEED_TIME, request->timeout_seconds);
    }
    // The CA certificates git's settings name, as git and git-lfs read them; unset, the
    // system's.
    const char *ca_file = getenv("GIT_SSL_CAINFO");
    const char *ca_folder = getenv("GIT_SSL_CAPATH");
    if (ca_file != NULL && *ca_file != 0) curl.easy_setopt(handle, CCURLOPT_CAINFO, ca_file);
    if (ca_folder != NULL && *ca_folder != 0) curl.easy_setopt(handle, CCURLOPT_CAPATH, ca_folder);
    curl.easy_setopt(handle, CCURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(handle, CCURLOPT_WRITEFUNCTION, pass_on);
    curl.easy_setopt(handle, CCURLOPT_WRITEDATA, (void *)pair);
    if (upload != NULL) {
        curl.easy_setopt(handle, CCURLOPT_UPLOAD, 1L);
        curl.easy_setopt(handle, CCURLOPT_READDATA, upload);
        curl.easy_setopt(handle, CCURLOPT_SEEKFUNCTION, rewind_upload);
        curl.easy_setopt(handle, CCURLOPT_SEEKDATA, upload);
        curl.easy_setopt(handle, CCURLOPT_INFILESIZE_LARGE, (ccurl_off_t)uploaded.st_size);
    } else if (request->body != NULL) {
        curl.easy_setopt(handle, CCURLOPT_POSTFIELDSIZE_LARGE, (ccurl_off_t)request->body_size);
        curl.easy_setopt(handle, CCURLOPT_POSTFIELDS, (const char *)request->body);
    }
    if (strcmp(request->method, upload != NULL ? "PUT" : request->body != NULL ? "POST" : "GET") != 0) {
        curl.easy_setopt(handle, CCURLOPT_CUSTOMREQUEST, request->method);
    }

    ccurl_code done = curl.easy_perform(handle);
    ccurl_outcome result = CCURL_ANSWERED;
    if (done == CCURLE_OK) {
        curl.easy_getinfo(handle, CCURLINFO_RESPONSE_CODE, status);
    } else {
        snprintf(error, error_size, "%s", failure[0] != 0 ? failure : curl.easy_strerror(done));
        // A certificate that fails the check, or a CA list that cannot be read, meets the
        // next try the same way.
        result = done == CCURLE_PEER_FAILED_VERIFICATION || done == CCURLE_SSL_CACERT_BADFILE
            ? CCURL_PEER_NOT_TRUSTED : CCURL_TRANSFER_FAILED;
    }
    curl.easy_cleanup(handle);
    curl.slist_free_all(headers);
    if (upload != NULL) fclose(upload);
    return result;
}
