import CairnCore
import CairnMerge
import Foundation

/// A store of 1,000 documents through a long history — by default 10,000 checkpoints of two
/// documents each (an exam in progress saved, a book's sections marked) — beside git making
/// the same commits with `git add && git commit`: the objects and bytes each checkpoint adds,
/// the files the history leaves, the audit of the whole history (`cairn verify` beside `git
/// fsck --strict`, which reads every object), and both repositories after `git repack -adf`.
struct HistoryFigures {
    let bench: Workbench
    let checkpoints: Int

    /// One row: what is measured, Cairn's figure, git's.
    typealias Row = (figure: String, cairn: String, git: String)

    func run() throws -> [Row] {
        let work = try bench.scratch("history")
        defer { bench.remove(work) }
        let (home, storeFolder, peer) = try bench.storeAndPeer(documents: 1_000, in: work)
        let store = try Home(root: home).openStore(Fixture.uid)
        let fixture = Fixture(documents: 1_000)
        let start = (cairn: ObjectsOnDisk(repository: storeFolder), git: ObjectsOnDisk(repository: peer))
        var rng = SplitMix(seed: 11)
        var cairnTimes: [Double] = []
        var gitTimes: [Double] = []
        for number in 0..<checkpoints {
            let changes = [
                Fixture.inProgress(number % Fixture.inProgressExams, stamp: number, &rng),
                Fixture.book(Int(rng.next() % UInt64(fixture.books)), low: number + 1, high: 0),
            ]
            for (path, value) in changes {
                try store.put(value, at: DocumentPath(path))
                try Workbench.write(value.canonicalBytes(), to: peer + "/" + path + ".json")
            }
            cairnTimes.append(try Stopwatch.milliseconds { _ = try store.checkpoint() })
            gitTimes.append(
                try bench.gitCommand(peer, ["add", "--"] + changes.map { $0.path + ".json" }).timed()
                    + bench.gitCommand(peer, ["commit", "-q", "-m", "checkpoint \(number)"]).timed())
            if number % 1_000 == 999 { say("  history: \(number + 1) checkpoints") }
        }
        let (ours, theirs) = (try bench.tree(storeFolder), try bench.tree(peer))
        guard ours == theirs else {
            throw Command.Failure(description: "history: the store's tree \(ours) is not git's \(theirs); the figures are void")
        }
        let end = (cairn: ObjectsOnDisk(repository: storeFolder), git: ObjectsOnDisk(repository: peer))
        // The audit: every commit against its parent by the server's rules (documents parsed
        // and checked, derived fields computed), beside git checking every object's format.
        let audit = (
            cairn: try bench.cairnCommand(home: home, ["verify"]).timed(),
            git: try bench.gitCommand(peer, ["fsck", "--strict", "--no-progress"]).timed()
        )
        // Both repacked alike, deltas computed again (`git gc` would keep Cairn's packed
        // objects as they are).
        try bench.gitCommand(storeFolder, ["repack", "-a", "-d", "-f", "-q"]).run()
        try bench.gitCommand(peer, ["repack", "-a", "-d", "-f", "-q"]).run()
        let packed = (cairn: ObjectsOnDisk(repository: storeFolder), git: ObjectsOnDisk(repository: peer))

        let n = Double(checkpoints)
        func perCheckpoint(_ from: ObjectsOnDisk, _ to: ObjectsOnDisk) -> (objects: String, bytes: String) {
            (Samples.format(Double(to.objects - from.objects) / n), Int(Double(to.bytes - from.bytes) / n).formatted())
        }
        let growth = (cairn: perCheckpoint(start.cairn, end.cairn), git: perCheckpoint(start.git, end.git))
        func files(_ disk: ObjectsOnDisk) -> String { "\(disk.packs.formatted()) packs, \(disk.loose.formatted()) loose" }
        func median(_ times: ArraySlice<Double>) -> String { Samples(values: Array(times)).summary }
        let window = min(100, checkpoints / 2)
        return [
            ("objects added per checkpoint", growth.cairn.objects, growth.git.objects),
            ("bytes added per checkpoint", growth.cairn.bytes, growth.git.bytes),
            ("objects after \(checkpoints.formatted()) checkpoints: files", files(end.cairn), files(end.git)),
            ("objects after \(checkpoints.formatted()) checkpoints: bytes", end.cairn.bytes.formatted(), end.git.bytes.formatted()),
            ("after git repack -adf: files", files(packed.cairn), files(packed.git)),
            ("after git repack -adf: bytes", packed.cairn.bytes.formatted(), packed.git.bytes.formatted()),
            ("checkpoint, first \(window) (ms)", median(cairnTimes.prefix(window)), median(gitTimes.prefix(window))),
            ("checkpoint, last \(window) (ms)", median(cairnTimes.suffix(window)), median(gitTimes.suffix(window))),
            (
                "audit of all \(checkpoints.formatted()) checkpoints (s): cairn verify, git fsck --strict",
                Samples.format(audit.cairn / 1_000), Samples.format(audit.git / 1_000)
            ),
        ]
    }
}
