#ifndef CAIRN_CURL_ABI_H
#define CAIRN_CURL_ABI_H

// The part of libcurl's binary interface that transfer.c uses: the types of the functions it
// finds with dlsym and the numbers of the options, codes and flags it passes. libcurl keeps
// these numbers for good (an option's number is part of its ABI), so they are written here
// and a build needs no libcurl header: building Cairn asks for libgit2, zlib and pkg-config
// only. Where libcurl's own header is installed (the tests' machines), transfer.c checks
// every number below against it at compile time.

#include <stdint.h>

typedef void ccurl_handle;
typedef int ccurl_code;
typedef int ccurl_option;
typedef int ccurl_info;
typedef int64_t ccurl_off_t;
struct ccurl_slist;

enum {
    CCURLE_OK = 0,
    CCURLE_PEER_FAILED_VERIFICATION = 60,
    CCURLE_SSL_CACERT_BADFILE = 77,
};

enum {
    CCURLOPT_WRITEDATA = 10001,
    CCURLOPT_URL = 10002,
    CCURLOPT_READDATA = 10009,
    CCURLOPT_ERRORBUFFER = 10010,
    CCURLOPT_WRITEFUNCTION = 20011,
    CCURLOPT_POSTFIELDS = 10015,
    CCURLOPT_LOW_SPEED_LIMIT = 19,
    CCURLOPT_LOW_SPEED_TIME = 20,
    CCURLOPT_HTTPHEADER = 10023,
    CCURLOPT_CUSTOMREQUEST = 10036,
    CCURLOPT_UPLOAD = 46,
    CCURLOPT_FOLLOWLOCATION = 52,
    CCURLOPT_CAINFO = 10065,
    CCURLOPT_MAXREDIRS = 68,
    CCURLOPT_CONNECTTIMEOUT = 78,
    CCURLOPT_CAPATH = 10097,
    CCURLOPT_NOSIGNAL = 99,
    CCURLOPT_INFILESIZE_LARGE = 30115,
    CCURLOPT_POSTFIELDSIZE_LARGE = 30120,
    CCURLOPT_SEEKFUNCTION = 20167,
    CCURLOPT_SEEKDATA = 10168,
    CCURLOPT_PROTOCOLS = 181,
    CCURLOPT_REDIR_PROTOCOLS = 182,
    CCURLOPT_PROTOCOLS_STR = 10318,
    CCURLOPT_REDIR_PROTOCOLS_STR = 10319,
};

enum {
    CCURLINFO_RESPONSE_CODE = 0x200002,
    CCURL_GLOBAL_DEFAULT = 3,
    CCURL_ERROR_SIZE = 256,
    CCURL_SEEKFUNC_OK = 0,
    CCURL_SEEKFUNC_CANTSEEK = 2,
    CCURLPROTO_HTTP = 1,
    CCURLPROTO_HTTPS = 2,
};

#endif
