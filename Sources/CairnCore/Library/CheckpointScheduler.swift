import CairnMerge

/// When pending writes get their checkpoint, from the policies of the kinds written
/// (``CheckpointPolicy``): pure bookkeeping of due times, driven by a ``ProgressStore``.
///
/// One checkpoint commits every pending write, so only the earliest due time matters; after
/// it, every kind that had writes waiting counts as checkpointed at that moment.
struct CheckpointScheduler {
    /// When each kind with waiting writes is due (the key is the kind's schema file, or ""
    /// for documents no schema describes).
    private(set) var dueByKind: [String: Double] = [:]
    /// When each kind was last checkpointed, for throttling.
    private var lastCheckpoint: [String: Double] = [:]

    /// Notes a write of a document of `kind` at `now`; true when it must be checkpointed at once.
    mutating func noteWrite(kind: String, policy: CheckpointPolicy, at now: Double) -> Bool {
        switch policy {
        case .immediate:
            return true
        case .debounce(let seconds):
            dueByKind[kind] = now + seconds
        case .throttle(let seconds):
            if dueByKind[kind] == nil {
                dueByKind[kind] = max(now, (lastCheckpoint[kind] ?? -.infinity) + seconds)
            }
        }
        return dueByKind[kind]! <= now
    }

    /// The earliest moment a checkpoint is due, or nil when no write waits.
    var nextDue: Double? { dueByKind.values.min() }

    /// Notes a checkpoint at `now`: every waiting write was committed.
    mutating func checkpointed(at now: Double, kinds: [String]) {
        for kind in Set(kinds).union(dueByKind.keys) { lastCheckpoint[kind] = now }
        dueByKind = [:]
    }
}
