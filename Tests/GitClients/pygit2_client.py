"""A store opened with pygit2 (libgit2), as an app or an IDE built on it would.

    pygit2_client.py STORE read
        prints the library, every path of the index, then the status ("clean", or one
        line per path that is not), and fails when the index cannot be read or the
        status is not clean
    pygit2_client.py STORE commit DOCUMENT FIELD=VALUE...
        the same checks, then writes the document DOCUMENT (users/u1/examAttempts/a9)
        in Cairn's canonical JSON, stages it and commits it on the current branch

Run by scripts/git-clients.sh, which chooses the interpreter (a virtual environment with
pygit2 from PyPI, or Debian's python3-pygit2).
"""

import os
import sys

import pygit2

# Run isolated (python -I), which leaves this folder out of the import path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from documents import parse_fields, valid_arguments, write_document  # noqa: E402


def unclean(repository):
    """Every path the status reports, but ignored ones, with libgit2's flags."""
    ignored = pygit2.GIT_STATUS_IGNORED
    return sorted((path, flags) for path, flags in repository.status().items() if flags != ignored)


def check(repository):
    """Prints the index and the status; exits 1 when the status is not clean."""
    index = repository.index
    index.read()
    for entry in index:
        print("entry", entry.path)
    changes = unclean(repository)
    for path, flags in changes:
        print("status", path, flags)
    if changes:
        print("pygit2: the status is not clean", file=sys.stderr)
        sys.exit(1)
    print("clean")
    return index


def commit(repository, index, document, fields):
    """Writes the document, stages it and commits it on the branch HEAD names."""
    relative = write_document(repository.workdir, document, fields)
    index.add(relative)
    index.write()
    tree = index.write_tree()
    signature = repository.default_signature
    message = "Add %s with pygit2\n" % document
    oid = repository.create_commit("HEAD", signature, signature, message, tree, [repository.head.target])
    print("commit", oid)
    changes = unclean(repository)
    if changes:
        print("pygit2: the status after the commit is not clean: %s" % changes, file=sys.stderr)
        sys.exit(1)


def main(arguments):
    if not valid_arguments(arguments):
        print("usage: pygit2_client.py STORE read | STORE commit DOCUMENT FIELD=VALUE...", file=sys.stderr)
        sys.exit(64)
    print("library pygit2 %s libgit2 %s" % (pygit2.__version__, pygit2.LIBGIT2_VERSION))
    try:
        repository = pygit2.Repository(arguments[0])
        index = check(repository)
        if arguments[1] == "commit":
            commit(repository, index, arguments[2], parse_fields(arguments[3:]))
    except Exception as error:  # what the library raised, as one line for the test to show
        print("pygit2: %s: %s" % (type(error).__name__, error), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
