import CairnCore
import CairnMerge

extension JSONValue {
    /// A finite JSON number as a double; nil for anything else.
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
