"""A store opened with dulwich (git in pure Python), as a script of a user would.

    dulwich_client.py STORE read
        prints the library, every path of the index, then the status ("clean", or one
        line per path that is not), and fails when the index cannot be read or the
        status is not clean
    dulwich_client.py STORE commit DOCUMENT FIELD=VALUE...
        the same checks, then writes the document DOCUMENT (users/u1/examAttempts/a9)
        in Cairn's canonical JSON, stages it and commits it on the current branch

Run by scripts/git-clients.sh, which chooses the interpreter (a virtual environment with
dulwich from PyPI, or Debian's python3-dulwich).
"""

import os
import sys

import dulwich
from dulwich import porcelain
from dulwich.repo import Repo

# Run isolated (python -I), which leaves this folder out of the import path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from documents import parse_fields, valid_arguments, write_document  # noqa: E402


def text(path):
    return path.decode("utf-8") if isinstance(path, bytes) else path


def unclean(repository):
    """Every path the status reports: staged (by kind), changed in the working tree, untracked."""
    status = porcelain.status(repository)
    changes = [("staged-" + kind, text(path)) for kind, paths in status.staged.items() for path in paths]
    changes += [("unstaged", text(path)) for path in status.unstaged]
    changes += [("untracked", text(path)) for path in status.untracked]
    return sorted(changes)


def check(repository):
    """Prints the index and the status; exits 1 when the status is not clean."""
    for path in repository.open_index():
        print("entry", text(path))
    changes = unclean(repository)
    for kind, path in changes:
        print("status", path, kind)
    if changes:
        print("dulwich: the status is not clean", file=sys.stderr)
        sys.exit(1)
    print("clean")


def commit(repository, document, fields):
    """Writes the document, stages it and commits it on the branch HEAD names."""
    path = os.path.join(repository.path, write_document(repository.path, document, fields))
    porcelain.add(repository, paths=[path])
    oid = porcelain.commit(repository, message=("Add %s with dulwich\n" % document).encode("utf-8"))
    print("commit", text(oid))
    changes = unclean(repository)
    if changes:
        print("dulwich: the status after the commit is not clean: %s" % changes, file=sys.stderr)
        sys.exit(1)


def main(arguments):
    if not valid_arguments(arguments):
        print("usage: dulwich_client.py STORE read | STORE commit DOCUMENT FIELD=VALUE...", file=sys.stderr)
        sys.exit(64)
    print("library dulwich %s" % ".".join(str(part) for part in dulwich.__version__))
    try:
        repository = Repo(os.path.abspath(arguments[0]))
        check(repository)
        if arguments[1] == "commit":
            commit(repository, arguments[2], parse_fields(arguments[3:]))
    except Exception as error:  # what the library raised, as one line for the test to show
        print("dulwich: %s: %s" % (type(error).__name__, error), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
