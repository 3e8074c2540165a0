/// What the report says about how each workload is measured, and why a target is out of
/// reach where it is.
enum Explanations {
    static let notes: [String] = [
        "**checkpoint**: 10 documents are written to both repositories (not timed), then the commit is timed: `cairn checkpoint` as a whole process, or `Store.checkpoint()` called by an app that holds the store open, against `git add <the 10 paths>` plus `git commit`. The two repositories must end on the same tree.",
        "**sync**: each device writes 40 new attempts and 60 books (50 of them the same books, different sections) and commits them (not timed); then the first device syncs, the second (which merges) and the first again. Git's side runs `git pull` then `git push` in the same order, its merge driver being `cairn merge-driver`, which git starts once for each document both sides changed. All four repositories must end on the same tree.",
        "**merge**: one branch marks the first half of the sections of N books, the other the second half; both sides merge the same two commits and write the merged tree. Git merges lines and knows no policy.",
        "**restore**: a new device clones the remote: `cairn clone` also checks every fetched path and the store's owner before it writes a file.",
        "**get and put**: calls in one process, per call; each side reads or writes 500 documents a round.",
    ]

    static func annotate(_ report: inout Report) {}
}
