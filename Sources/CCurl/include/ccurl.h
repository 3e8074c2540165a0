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
    /// The longest wait, in seconds, for the connection and for any byte either way; 0 for
    /// libcurl's defaults.
    long timeout_seconds;
} ccurl_request;

/// Receives the answer's body, piece by piece; returns how much it took (less stops the
/// transfer).
typedef size_t (*ccurl_sink)(const char *bytes, size_t size, void *context);

/// How a request ended.
typedef enum ccurl_outcome {
    /// An answer came: `*status` holds its HTTP status.
    CCURL_ANSWERED = 0,
    /// No answer: libcurl said why (a refused connection, a timeout).
    CCURL_TRANSFER_FAILED = 1,
    /// libcurl could not be loaded on this machine.
    CCURL_UNAVAILABLE = 2,
    /// The file to upload could not be read.
    CCURL_UNREADABLE_FILE = 3,
    /// No answer: the server's TLS certificate (or the name it is for) did not pass the check
    /// against the system's CA certificates (CURLE_PEER_FAILED_VERIFICATION), or those could
    /// not be read (CURLE_SSL_CACERT_BADFILE); libcurl said why.
    CCURL_PEER_NOT_TRUSTED = 4,
} ccurl_outcome;

/// Sends `request`, passing the answer's body to `sink`. Returns CCURL_ANSWERED with
/// `*status` set, or another outcome with one line in `error` (`error_size` bytes at most).
ccurl_outcome ccurl_perform(const ccurl_request *request, ccurl_sink sink, void *context,
                            long *status, char *error, size_t error_size);

#endif
