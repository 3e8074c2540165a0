/// Why a ``GitServer`` could not start; the description includes its logs.
public struct GitServerStartError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
