/// What the report says about how each workload is measured, and why a target is out of
/// reach where it is: the reasons are the design's, found by profiling (perf, callgrind), not
/// guesses about the machine.
enum Explanations {
    static let notes: [String] = [
        "**checkpoint**: 10 documents are written to both repositories (not timed), then the commit is timed: `cairn checkpoint` as a whole process, or `Store.checkpoint()` called by an app that holds the store open, against `git add <the 10 paths>` plus `git commit`. Each row's rounds run one after another: the library's checkpoints follow each other through one open store, as an app's do. Cairn's checkpoint is durable (its new objects are fsynced as one pack, then the index and the branch); git by default fsyncs none of them. So the library's checkpoint is also set against git made as durable, `git -c core.fsync=added -c core.fsyncMethod=fsync add && commit` (git then fsyncs every new object file and the index), and against the floor: the checkpoint's own 7 fsyncs issued alone, on files the sizes it just wrote, in a folder of their own on the same disk (the files written untimed first). The targets are the library's: at least 5× the durable git, at most 2× the floor; the tool's start is its floor, and its rows are reported without a target. The two repositories must end on the same tree.",
        "**index**: 10 books are written to copies of the store's repository (not timed); then Cairn's `Index` stages them (each blob hashed and stored, its entry made from `lstat`) and writes the index, whole (version 2) in one copy and split in another, against `git update-index -- <the 10 paths>` in a copy of its own beside each, which does the same and writes git's whole index. The disk is synced before each measure; each side opens the repository and the index anew, as a checkpoint does. Each index must list what its peer's lists. The figures decide from what size Cairn writes a split index (`Index.splitThreshold`).",
        "**sync**: each device writes 40 new attempts and 60 books (50 of them the same books, different sections) and commits them (not timed); then the first device syncs, the second (which merges) and the first again. Git's side runs `git pull` then `git push` in the same order, its merge driver being `cairn merge-driver`, which git starts once for each document both sides changed. All four repositories must end on the same tree. Over HTTP the remotes are plain bare repositories, then (third row) the repositories of `cairn server init` as a deployment serves them: git checks every object received (`receive.fsckObjects`), and each push runs Cairn's pre-receive hook (`cairn-hook`, which checks every pushed document) and post-receive hook (a shell script that starts `cairn-hook` to remove the assets no document points to any more, only after a push that changed or removed an asset's pointer); git's side pushes through the same hooks. The server's CPU is read from `/proc` around each side's syncs.",
        "**merge**: one branch marks the first half of the sections of N books, the other the second half; both sides merge the same two commits and write the merged tree. Git merges lines (its own three-way line merge for every `.json` file, set in `.git/info/attributes`, since the store's `.gitattributes` names Cairn's driver) and knows no policy: it leaves conflict markers where Cairn computes `completedCount`, `lastSectionId` and `updatedAt`; its tree must differ from each side in every book.",
        "**link**: the tool over a phone's link, `LinkProxy` (the tests' user-space TCP proxy: every byte waits half of a 100 ms round trip each way, each direction carries 2 MB/s, and a connection's first bytes wait one round trip more, for the TCP handshake) in front of lighttpd serving git's smart HTTP over HTTPS with a certificate of its own, which both clients trust through `GIT_SSL_CAINFO`. On copies of the benchmark's store: a restore (`cairn clone` against `git clone`); a sync with nothing to do; a sync that pushes 10 changed books; a sync that merges 100 books both devices changed (the other device pushed its half first), against `git pull && git push` with Cairn's merge driver. The floor counts the round trips git's smart HTTP needs as libgit2 speaks it: one for the TCP handshake, two for TLS 1.2's (libgit2's TLS library here, mbedTLS 2.28, has no TLS 1.3, which would take one), one for each request (the ref advertisement of `git-upload-pack`; its `POST` only when there is something to fetch, one when the server's history is close to the device's; the ref advertisement of `git-receive-pack` and its `POST` only when there is something to push), with the credentials sent from the first request; so 4 for a sync with nothing to do, 5 for one that only pushes (the push's advertisement tells whether the server's branch moved, so no fetch is needed), 7 for one that fetches and pushes, 5 for a restore, plus Cairn's bytes over the bandwidth. Cairn's order takes one more for a sync that fetches and pushes when its own news came first: its push, tried first, is refused after the advertisement, before sending anything; the floor stays the protocol's 7. Requests are counted in one more run of each side, apart from the timed rounds (lighttpd writes its access log every 4 s); connections, handshakes and bytes are the timed rounds' averages.",
        "**restore**: a new device clones the remote, on two shapes: the benchmark's store as its syncs left the remote (the generated documents, a pack for each push), and a freshly packed store of books only (the store's size in books, two checkpoints, the second changing one book in ten, then `git repack -a -d` into one pack). `cairn clone` also checks every fetched path and document and the store's owner before it writes a file, then writes the working tree (its folders shared between two threads) and its index, and syncs the file system.",
        "**content**: an assessment of 200 questions, published as one commit in its item repository (`cairn server content init`); a device downloads it (`cairn content download`, its cache emptied before each round) against `git clone --bare` of the same `file://` URL, then moves to a version with one question reworded against `git fetch` into a bare copy at version 1. Cairn's side also opens the user's store for its content URL, checks every document of every version it receives against the collection's set, measures the item on disk, takes the cache's lock and writes its record; both must end on the same commit.",
        "**get and put**: calls in one process, per call; each side reads or writes 500 documents a round. Cairn's put checks the document against its schema and computes its derived fields; a get of a document read before costs one `stat` while its file is unchanged.",
        "**exam session**: seed 000's 45-minute exam played through the library on a stopped clock (`cairn simulate exam-session` shows the same).",
        "**cluster**: backups of a shard of `--backup-users` users (1,000 by default; each repository made by `cairn server init`, then given the same short history by a fetch) into a folder on the same disk: `cairn server backup` (a git bundle for each user with something new, and the manifest) against `rclone copy` of the shard's folder, first whole, then with nothing new, then after ten users pushed; the restore of every user (`cairn server restore`, each repository made with its hooks from its bundles, its refs checked against the manifest) against `rclone copy` back. Then the serving workload's load run through HAProxy (Debian's 2.6), routed by the map of buckets, to one shard and to three (`cairn server run` each, on this machine): every device writes a note and syncs twice, sixteen at once, retrying what the servers answer 503; each shard's CPU counted from `/proc` as in serving; every acknowledged note checked on its user's shard. With three shards, the drill follows: shard 2 backed up into a folder, a round of writes its backup lacks, then shard 2 killed (SIGKILL) and its folder deleted, restored from that backup and started again on its port; every device syncs once more before the count.",
        "**push-cost**: a repository of `cairn server init` (the life-in-uk set, Cairn's pre-receive and post-receive hooks, `receive.fsckObjects`) holds the benchmark's store; each round a device changes one book, checkpoints, and pushes with `git push`, whose request (its commands and its pack) is kept on the way in. That request is replayed into the repository, its branch set back first, through `git http-backend` as a web server runs it (CGI, `REMOTE_USER` set), through `git receive-pack` alone, and through `git receive-pack` with no hooks (`core.hooksPath` an empty folder); its pack goes through `git unpack-objects --strict` alone, as `receive-pack` hands a small push to it; each hook runs alone, started in the repository as git starts it; the pre-receive hook also reports the CPU of its own process when `git receive-pack` runs it (`CAIRN_HOOK_REPORT`). Each figure is the CPU of the process and every process it waited for (`wait4`); a part is the difference of two layers in the same round. A replay finds the pushed objects already stored, so it writes no new object file: the first push of those objects costs a few small writes more.",
        "**serving**: `cairn server run` and lighttpd (running `git http-backend` as CGI, a password per user) serve the same repositories, made by `cairn server init` with the life-in-uk set, so both run Cairn's hooks on every push. Two devices a user (the first made and synced, the second restored, not timed), then rounds the two servers take in turns: every device writes a note and runs `cairn sync` (which pushes first when its news are its own, and fetches and merges when the other device pushed meanwhile), four at once; the round's wall time gives syncs a second, and the server's CPU — its process and every process it reaped (`git http-backend`, `git receive-pack`, `git upload-pack`, the hooks) — per sync. Devices present an ID token (RS256, signed by openssl) to `cairn server run` and a password to lighttpd. One token's verification is timed in process with its key set held. The load run is `cairn server run` alone, its backends bounded at twice the processors: two devices a user, each writing a note and syncing three times, sixteen at once, retrying what a busy server answers 503; then every device syncs twice more, and every note a sync acknowledged must be in the server's repository.",
    ]

    /// How each workload is measured on documents drawn from another schema set (`--schema`).
    static func drawnNotes(set: String) -> [String] {
        [
            "**documents**: drawn from the schema set \(set): valid random documents of its kinds in turn, each at a path of its own, from a fixed seed (as `cairn simulate` draws them); a change is an edit its kind's merge policy expects, or a new document of an append-only kind. The reasons beside the project's own figures (BENCHMARKS.md) were measured on its Life in the UK documents, not on these.",
            "**checkpoint**: 10 changes are written through `Store.put` (not timed), and the files as the store wrote them (derived fields and counts computed, the documents whose counts changed) to git's copy; then the commit is timed, as for the project's documents.",
            "**merge**: each of two branches changes up to 1,000 documents (half the store at most) as a device would, from the same seed for both sides; both sides merge the same two commits and write the merged tree. Git merges lines and knows no policy.",
            "**get and put**: as for the project's documents; a put of a kind the set checkpoints at each write (`\"checkpoint\": \"immediate\"`) is left out, since that write is a checkpoint.",
        ]
    }

    /// Why a target was missed, by workload; nil where the report has nothing to add.
    static func reason(for row: Comparison) -> String? {
        switch row.workload {
        case let name where name.hasPrefix("checkpoint") && row.cairnSide.hasPrefix("cairn"):
            return
                "no target: a person or a script runs the tool, and its start is the floor; a whole process: \(processStart); an app checkpoints through the library (next rows)"
        case let name where name.hasPrefix("checkpoint") && row.peerSide == CheckpointBenchmark.Peer.git.rawValue:
            return
                "no target: git here fsyncs nothing; the next row sets the checkpoint against a git made as durable, the one after against its own fsyncs alone"
        case let name where name.hasPrefix("checkpoint") && row.peerSide == CheckpointBenchmark.Peer.fsyncs.rawValue:
            return
                "the floor is the 7 fsyncs alone, of files the sizes the checkpoint just wrote; the checkpoint does the rest around them: \(checkpointWork)"
        case let name where name.hasPrefix("checkpoint") && name.contains("large collections"):
            return
                "the new trees of the two large collections are written whole (git's format: about 6 MB at 100,000 documents, hashed and fsynced); \(checkpointWork); \(durability(row))"
        case let name where name.hasPrefix("checkpoint"):
            return "\(checkpointWork); \(durability(row)); git's cost grows with its index"
        case let name where name.hasPrefix("sync"):
            return
                "three processes, each paying the start of the checkpoint rows; in three syncs over a path (perf, 1,000 documents), libgit2's fetch and push (a pack built, sent and indexed each way) are a quarter of the CPU, the three starts a sixth, writing the merged and fetched files a tenth (a new file for each new attempt), checking every document it pushes as the server will a fifteenth, and recomputing derived fields, checking what was fetched and the merge itself a twenty-fifth each; libgit2's search for deltas, in the pack a push sends (one thread) and in the small packs combined every few syncs (every core), is a seventh of the three syncs' CPU; it makes a push's pack about a third smaller (a merging sync's 268 objects: 85 KB with deltas, 136 KB without, by `git pack-objects`); git's side pays for starting `cairn merge-driver` once per document both sides changed"
        case let name where name.hasPrefix("three-way merge") && row.cairnSide.hasPrefix("cairn"):
            return "a whole process: \(processStart); \(hashedReads); the library's merge (next row) is the same work without the start"
        case let name where name.hasPrefix("three-way merge"):
            return
                "Cairn parses three versions of each book and merges them value by value under the policies, derived fields recomputed, then writes canonical JSON; git compares lines in C and leaves conflict markers; \(hashedReads)"
        case let name where name.hasPrefix("a sync that pushes"):
            return
                "a sync whose news are its own pushes first: two requests on one connection (the push's ref advertisement and the push), git's pull and push six on two; Cairn's floor of five round trips is itself 0.46–0.48 of git's time on this link, which leaves about 50 ms for both processes, the server's receive-pack and hooks, and the bytes; libgit2 sends a push's trees whole where git sends them as deltas against what the server holds (a thin pack), 102 KB against 4 KB at 10,000 documents, about 50 ms of this link by itself"
        case let name where name.hasPrefix("restore"):
            return
                "both create one file per document, most of the time on this file system (ext4 without a journal: a new file's inode is searched past those deleted in the last minute); Cairn creates two folders' files at once, but checks every fetched path and document before writing, hashes every object it reads, and starts a process of about 9 ms; where creating a file is cheap (tmpfs, 3,000 books) the checks are what is left: in perf, writing the files is a quarter of Cairn's CPU, the checks of what was fetched a fifth (parsing every document a third of that), reading and hashing the blobs a fifteenth"
        case let name where name.hasPrefix("put"):
            return
                "a put validates the document against its schema (about an eighth of its time, with the schema compiled once), computes derived fields, writes canonical JSON, notes the path for the next checkpoint and swaps the file in atomically: about 19 system calls, among them a write, an append and a rename that each update an inode, where SQLite appends a page to its WAL"
        case let name where name.hasPrefix("get"):
            return "both parse the same JSON; the difference is a file read against a B-tree lookup"
        default:
            return nil
        }
    }

    /// What a Cairn process pays before any work (perf and `perf stat` of `cairn --version`, of
    /// an empty C program with and without libgit2, and of a Swift program printing a line).
    static let processStart =
        "before any work Cairn's start takes about 5 ms (`cairn --version`), git's about 1.3: the Swift runtime about 1.5, the command line parser about 2 (the runtime's first look-ups of types and conformances, each a scan of the program's 5,100 conformance records), the shared libraries still loaded (GSSAPI's seven, the C++ runtime) about 0.5, and relocating a 69 MB position-independent program the rest (1.2–3.5 ms less linked at a fixed address, which would give up address randomisation); libgit2 and the libraries it uses are linked in (with Debian's shared libgit2, which brings seven libraries more, a start took about 1 ms and 2.2–2.8 MiB more); starting libgit2 adds about 1 ms for a command that opens a store (its SSH and TLS libraries' set-up), and no longer parses the system's CA certificates (5 ms), which are read at the first connection"

    /// What reading objects safely costs (perf of `cairn merge-tree` at 1,000 documents).
    static let hashedReads =
        "every object Cairn reads is hashed against its id (documents with swift-crypto's SHA-1, the trees compared and commits with libgit2's SHA-1 with collision detection), so that a damaged pack is an error and never another document; git's merge reads objects without hashing them"

    /// What a checkpoint does besides its fsyncs.
    static let checkpointWork =
        "each checkpoint creates at least four files (the pack, its index, `index.lock`, the branch's `.lock`), and on this file system (ext4 without a journal) creating a file soon after deletions takes up to a millisecond"

    /// What a durable checkpoint costs that git's commit does not (strace of a checkpoint of
    /// 10 documents at 1,000), against what the target leaves for the whole checkpoint.
    static func durability(_ row: Comparison) -> String {
        let budget =
            row.target.budget(peer: row.peer.median).map {
                "; the target leaves \(Samples.format($0)) \(row.unit) for the whole checkpoint"
            } ?? ""
        if row.peerSide == CheckpointBenchmark.Peer.durableGit.rawValue {
            return
                "as durable as this git: 7 fsyncs, where git makes one for each new object file (the 10 blobs, the trees above them, the commit) and one for its index; the floor row times the 7 alone\(budget)"
        }
        return
            "durable where git's commit is not: 7 fsyncs (the pack, its index and their folder; the index and `.git`; the branch and its folder; the reflogs are appended unsynced, as git appends them), 1.6–2.7 ms of this disk's time at 1,000 documents (`perf trace`; 1.55 ms in a trace of one library checkpoint, whose other calls took under a millisecond)\(budget)"
    }

    /// Why Cairn's peak memory passed its limit, where it did.
    static let memoryReason =
        "a Cairn process holds about 13.5 MiB before any work (`cairn --version`), git about 3.5: the pages of the tool it runs (a 69 MB program with the Swift runtime, FoundationEssentials and libgit2 with its TLS and SSH libraries linked in) and the shared libraries it still loads (GSSAPI's Kerberos libraries, the C++ runtime); with the shared libgit2 it held about 15.8"

    /// Why a growth limit was passed.
    static func reason(for growth: Growth) -> String? {
        growth.workload.contains("large collections")
            ? "git's format: a folder is one tree object, so adding to a collection of N documents rewrites its whole tree (60,000 attempts: 3.8 MB); git grows with it too, and faster"
            : "below 50,000 entries the index is written whole at each checkpoint, the form every git implementation reads (116 KB at 1,000 documents, 1 MB at 10,000: copied, hashed and fsynced); above, it is split and stops growing with the store"
    }

    static func annotate(_ report: inout Report) {
        // Rows without a target say why they have none, where there is something to say.
        for index in report.comparisons.indices
        where report.comparisons[index].target.isMet(speedup: report.comparisons[index].speedup) != true {
            report.comparisons[index].note = reason(for: report.comparisons[index])
        }
        for index in report.growths.indices where report.growths[index].cairn > report.growths[index].limit {
            report.growths[index].note = reason(for: report.growths[index])
        }
    }
}
