import CairnCore
import CairnMerge

/// What must hold at a point of a ``Story``.
public enum Expectation: Sendable, CustomStringConvertible {
    /// The document at `path` on `device` is `value`, byte for byte in canonical form.
    case equals(device: String, path: String, value: JSONValue)
    /// The document at `path` on `device` holds `value`: objects compared by the keys `value`
    /// names, recursively; anything else equal, an array as a whole (element by element in
    /// canonical form, with no subset rule inside it).
    case contains(device: String, path: String, value: JSONValue)
    /// There is no document at `path` on `device`.
    case absent(device: String, path: String)
    /// The named devices (all when empty) — and with `remote`, the remote — have checkpointed
    /// the same tree.
    case sameTree(devices: [String], remote: Bool)
    /// The conflict records of the device's last sync (none when it did not merge) are
    /// `records`, each as ``ConflictRecord/jsonValue`` writes one, in any order.
    case conflicts(device: String, records: [JSONValue])
    /// `step` fails with a store error — of `code` when given, its message holding `message`
    /// when given — and writes nothing: the device's documents, its checkpoints and the remote
    /// stay as they were. A `sync` checkpoints the pending writes before it fetches, and keeps
    /// that checkpoint when it is refused: for a sync, the device's checkpoint may move to one
    /// checkpoint of the writes pending before it (none pending after), nothing else.
    indirect case refused(Step, code: CairnError.Code?, message: String?)
    /// Every device's history and the remote's pass `cairn verify` (``Store/verify(_:checked:)``):
    /// every commit meets the rules a push must meet, every merge is what the policies give.
    /// Every story a scenario file or a golden case tells ends with it.
    case verified

    public var description: String {
        switch self {
        case .equals(let device, let path, _): "expect \(path) on \(device) equals"
        case .contains(let device, let path, _): "expect \(path) on \(device) contains"
        case .absent(let device, let path): "expect \(path) absent on \(device)"
        case .sameTree(let devices, let remote):
            "expect the same tree on \(devices.isEmpty ? "every device" : devices.joined(separator: ", "))\(remote ? " and the remote" : "")"
        case .conflicts(let device, let records): "expect \(records.count) conflict record\(records.count == 1 ? "" : "s") on \(device)"
        case .refused(let step, _, _): "expect refused: \(step)"
        case .verified: "expect every history verified"
        }
    }
}
