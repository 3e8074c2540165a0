import CairnCore

/// Where a shard's backups go: `s3://BUCKET/PREFIX` in an S3-compatible object store (its
/// endpoint from `--s3-endpoint` or `AWS_ENDPOINT_URL`, its credentials from the usual
/// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`), or a folder (`/backups/shard1`). Cairn
/// reaches either through rclone, a maintained client: no request is signed by hand.
public struct BackupTarget: Sendable, Hashable, CustomStringConvertible {
    public enum Place: Sendable, Hashable {
        case s3(bucket: String, prefix: String, endpoint: String?)
        case folder(String)
    }

    public let place: Place

    /// Reads `s3://BUCKET/PREFIX` or a folder's path (absolute, or `file://`).
    public static func parse(_ text: String, endpoint: String? = nil) -> Result<BackupTarget, BackupError> {
        if text.hasPrefix("s3://") {
            let rest = text.dropFirst("s3://".count)
            let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            let bucket = String(parts[0])
            let prefix = parts.count > 1 ? String(parts[1]).trimmingSlashes() : ""
            guard !bucket.isEmpty, bucket.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }),
                !prefix.contains(".."), !prefix.contains("//")
            else {
                return .failure(BackupError("\(text) is not s3://BUCKET/PREFIX (a bucket of letters, digits, - and ., then a path)"))
            }
            return .success(BackupTarget(place: .s3(bucket: bucket, prefix: prefix, endpoint: endpoint)))
        }
        let path = text.hasPrefix("file://") ? String(text.dropFirst("file://".count)) : text
        guard path.hasPrefix("/") else {
            return .failure(BackupError("\(text) is neither s3://BUCKET/PREFIX nor an absolute folder; name one of them"))
        }
        return .success(BackupTarget(place: .folder(path)))
    }

    /// The name rclone's configuration gives the object store (set through its variables).
    static let remoteName = "cairns3"

    /// `path` inside the target, as rclone names it.
    func rclonePath(_ path: String = "") -> String {
        switch place {
        case .s3(let bucket, let prefix, _):
            let inside = [prefix, path].filter { !$0.isEmpty }.joined(separator: "/")
            return "\(Self.remoteName):\(bucket)" + (inside.isEmpty ? "" : "/" + inside)
        case .folder(let folder):
            return path.isEmpty ? folder : folder + "/" + path
        }
    }

    /// The variables that configure rclone for the target, from the process's own.
    func rcloneEnvironment(_ inherited: [String: String]) -> [String: String] {
        guard case .s3(_, _, let endpoint) = place else { return [:] }
        let name = "RCLONE_CONFIG_" + Self.remoteName.uppercased() + "_"
        var variables = [
            name + "TYPE": "s3", name + "PROVIDER": "Other", name + "ENV_AUTH": "true",
            name + "REGION": inherited["AWS_REGION"] ?? inherited["AWS_DEFAULT_REGION"] ?? "us-east-1",
        ]
        if let endpoint = endpoint ?? inherited["AWS_ENDPOINT_URL_S3"] ?? inherited["AWS_ENDPOINT_URL"] {
            variables[name + "ENDPOINT"] = endpoint
        }
        return variables
    }

    public var description: String {
        switch place {
        case .s3(let bucket, let prefix, _): "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)")
        case .folder(let folder): folder
        }
    }
}

/// Why a backup or a restore stopped, in one line.
public struct BackupError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) {
        self.description = description
    }
}

extension String {
    func trimmingSlashes() -> String {
        var slice = self[...]
        while slice.first == "/" { slice.removeFirst() }
        while slice.last == "/" { slice.removeLast() }
        return String(slice)
    }
}

extension BackupError {
    /// `body`'s failure on this machine (a folder, a file) as a backup's one line.
    static func local<T>(_ body: () throws(CairnError) -> T) throws(BackupError) -> T {
        do {
            return try body()
        } catch {
            throw BackupError(error.message)
        }
    }
}
