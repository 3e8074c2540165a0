// libcurl as Cairn uses it: loaded at the first request (dlopen), its variadic
// curl_easy_setopt called with the right types, one request at a time per call.
#define CURL_DISABLE_DEPRECATION
#include "ccurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// The libcurl functions Cairn calls, found once.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
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
    CURLcode started = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (started != CURLE_OK) {
        snprintf(curl.failure, sizeof curl.failure, "libcurl did not start: %s", curl.easy_strerror(started));
        return;
    }
    curl.loaded = 1;
}

/// Takes an upload back to `offset`, when a server redirects it or libcurl sends it again.
static int rewind_upload(void *file, curl_off_t offset, int origin) {
    return fseeko(file, (off_t)offset, origin) == 0 ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_CANTSEEK;
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
    CURL *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(error, error_size, "libcurl could not start a transfer");
        if (upload != NULL) fclose(upload);
        return CCURL_TRANSFER_FAILED;
    }
    struct curl_slist *headers = NULL;
    for (size_t i = 0; i < request->header_count; i++) {
        headers = curl.slist_append(headers, request->headers[i]);
    }
    // libcurl asks before sending a large body; the servers Cairn talks to take it at once.
    headers = curl.slist_append(headers, "Expect:");
    char failure[CURL_ERROR_SIZE] = {0};
    void *pair[2] = {(void *)sink, context};

    curl.easy_setopt(handle, CURLOPT_URL, request->url);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, failure);
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(handle, CURLOPT_MAXREDIRS, 10L);
    // Only HTTP and HTTPS, also where a server redirects to.
    if (curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK) {
        curl.easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    }
    if (curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") != CURLE_OK) {
        curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    }
    if (request->timeout_seconds > 0) {
        curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, request->timeout_seconds);
        curl.easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl.easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, request->timeout_seconds);
    }
    // The CA certificates git's settings name, as git and git-lfs read them; unset, the
    // system's.
    const char *ca_file = getenv("GIT_SSL_CAINFO");
    const char *ca_folder = getenv("GIT_SSL_CAPATH");
    if (ca_file != NULL && *ca_file != 0) curl.easy_setopt(handle, CURLOPT_CAINFO, ca_file);
    if (ca_folder != NULL && *ca_folder != 0) curl.easy_setopt(handle, CURLOPT_CAPATH, ca_folder);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, pass_on);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, (void *)pair);
    if (upload != NULL) {
        curl.easy_setopt(handle, CURLOPT_UPLOAD, 1L);
        curl.easy_setopt(handle, CURLOPT_READDATA, upload);
        curl.easy_setopt(handle, CURLOPT_SEEKFUNCTION, rewind_upload);
        curl.easy_setopt(handle, CURLOPT_SEEKDATA, upload);
        curl.easy_setopt(handle, CURLOPT_INFILESIZE_LARGE, (curl_off_t)uploaded.st_size);
    } else if (request->body != NULL) {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_size);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, (const char *)request->body);
    }
    if (strcmp(request->method, upload != NULL ? "PUT" : request->body != NULL ? "POST" : "GET") != 0) {
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request->method);
    }

    CURLcode done = curl.easy_perform(handle);
    ccurl_outcome result = CCURL_ANSWERED;
    if (done == CURLE_OK) {
        curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, status);
    } else {
        snprintf(error, error_size, "%s", failure[0] != 0 ? failure : curl.easy_strerror(done));
        // A certificate that fails the check, or a CA list that cannot be read, meets the
        // next try the same way.
        result = done == CURLE_PEER_FAILED_VERIFICATION || done == CURLE_SSL_CACERT_BADFILE
            ? CCURL_PEER_NOT_TRUSTED : CCURL_TRANSFER_FAILED;
    }
    curl.easy_cleanup(handle);
    curl.slist_free_all(headers);
    if (upload != NULL) fclose(upload);
    return result;
}
