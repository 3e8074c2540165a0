#ifndef CAIRN_CGIT2_SETUP_H
#define CAIRN_CGIT2_SETUP_H

// libgit2's process-wide start, with the system's CA certificates read when the process
// first connects to a server rather than when it starts (setup.c says how and why).

/// git_libgit2_init, with the certificate file (or folder) libgit2 reads at its start noted,
/// not read. Returns what git_libgit2_init returns.
int cgit2_init_deferring_certificates(void);

/// Reads the certificates cgit2_init_deferring_certificates noted, once per process
/// (git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, ...)), unless locations were set
/// since; later calls return at once. Returns 0, or what the reading returned when it failed.
int cgit2_load_deferred_certificates(void);

/// Whether the certificates were noted at the start, not read yet, and no other locations
/// were set since (for the tests).
int cgit2_certificates_deferred(void);

/// Whether libgit2 read CA certificates from locations set after its start
/// (GIT_OPT_SET_SSL_CERT_LOCATIONS), rather than the noted ones.
int cgit2_certificates_located_elsewhere(void);

#endif
