#ifndef CAIRN_CCURL_H
#define CAIRN_CCURL_H

#include <stddef.h>

/// One HTTP request made with libcurl, which is loaded (dlopen) the first time a request is
/// made and never before: a program that makes none starts without libcurl and the dozens of
/// libraries it brings, and runs on a machine that lacks them.
typedef struct ccurl_request {
    /// "GET", "POST", "PUT", ...
    const char *method;
    const char *url;
    /// Header lines ("Name: value"), `header_count` of them.
    const char *const *headers;
    size_t header_count;
    /// The body to send, or NULL.
    const unsigned char *body;
    size_t body_size;
    /// A file to send as the body instead, or NULL.
    const char *upload_file;
    /// The longest wait, in seconds, for the connection and for any byte either way.
    long timeout_seconds;
} ccurl_request;

/// Receives the answer's body, piece by piece; returns how much it took (less stops the
/// transfer).
typedef size_t (*ccurl_sink)(const char *bytes, size_t size, void *context);

/// Sends `request`, passing the answer's body to `sink`. On success returns 0 and sets
/// `*status` to the HTTP status. On failure returns non-zero with one line in `error`
/// (`error_size` bytes at most): libcurl missing, a file that cannot be read, or what libcurl
/// said of the transfer.
int ccurl_perform(const ccurl_request *request, ccurl_sink sink, void *context,
                  long *status, char *error, size_t error_size);

#endif
