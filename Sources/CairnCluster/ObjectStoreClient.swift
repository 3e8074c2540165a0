import CairnCore

/// The object store of a ``BackupTarget``, reached through rclone (Debian's `rclone`): one
/// process for each listing, read or copy, a whole folder at a time, so a backup of many users
/// costs a few processes, not one per user.
struct ObjectStoreClient: Sendable {
    let target: BackupTarget
    let rclone: String
    let environment: [String: String]

    init(_ target: BackupTarget, rclone: String = "rclone", environment inherited: [String: String]) {
        self.target = target
        self.rclone = rclone
        var variables = target.rcloneEnvironment(inherited)
        // rclone cannot take AWS_CA_BUNDLE through its S3 library; it takes the same file
        // as its own option (below).
        variables["AWS_CA_BUNDLE"] = ""
        variables["RCLONE_CA_CERT"] = inherited["AWS_CA_BUNDLE"].flatMap { $0.isEmpty ? nil : $0 }
        environment = variables.compactMapValues { $0 }
    }

    var commonArguments: [String] {
        ["--config", "/dev/null", "-q", "--retries", "3", "--low-level-retries", "3", "--contimeout", "10s", "--timeout", "60s"]
    }

    /// The bytes of the file at `path` (in `folder`), or nil when it is not there: one process.
    /// rclone's `cat` prints nothing for a file that is not there, and fails for a bucket or
    /// folder that is not there; the files read here are never empty.
    func read(_ path: String, in folder: String) async throws(BackupError) -> [UInt8]? {
        switch try await run(["cat", target.rclonePath(folder.isEmpty ? path : folder + "/" + path)], doing: "read \(path)") {
        case .success(let output): return output.isEmpty ? nil : Array(output.utf8)
        case .failure(let failed) where failed.status == 3: return nil
        case .failure(let failed): throw failure(failed, doing: "read \(path) from \(target)")
        }
    }

    /// Copies the files under the local `folder` to `path` of the target, without listing what
    /// the target holds first.
    func upload(folder: String, to path: String) async throws(BackupError) {
        if case .failure(let failed) = try await run(["copy", "--no-traverse", folder, target.rclonePath(path)], doing: "upload") {
            throw failure(failed, doing: "write to \(target)")
        }
    }

    /// Copies the local `file` to `path` of the target.
    func upload(file: String, to path: String) async throws(BackupError) {
        if case .failure(let failed) = try await run(["copyto", file, target.rclonePath(path)], doing: "upload") {
            throw failure(failed, doing: "write \(path) to \(target)")
        }
    }

    /// Copies `path` of the target, a folder, into the local `folder`.
    func download(_ path: String, to folder: String) async throws(BackupError) {
        if case .failure(let failed) = try await run(["copy", target.rclonePath(path), folder], doing: "download") {
            throw failure(failed, doing: "read \(path) from \(target)")
        }
    }

    private func run(_ arguments: [String], doing: String) async throws(BackupError) -> Result<String, ProgramRun> {
        let run: ProgramRun
        do {
            run = try await ProgramRun.run(rclone, commonArguments + arguments, environment: environment, outputLimit: 1 << 30)
        } catch {
            throw BackupError("cannot \(doing): \(error.message); install rclone (Debian's rclone package)")
        }
        return run.succeeded ? .success(run.stdout) : .failure(run)
    }

    /// One line for what rclone said: refused credentials and a full store by name.
    private func failure(_ run: ProgramRun, doing: String) -> BackupError {
        let said = run.stderr
        if ["AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "status code: 403", "Forbidden"].contains(where: said.contains) {
            return BackupError(
                "cannot \(doing): the object store refused the credentials (\(run.lastError.trimmingWhitespace())); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY to a key that may write there"
            )
        }
        if [
            "no space left", "remaining disk space", "quotaexceeded", "insufficientstorage", "status code: 507", "entitytoolarge",
            "disk full", "volume full",
        ].contains(where: said.lowercased().contains) {
            return BackupError(
                "cannot \(doing): the object store is full (\(run.lastError.trimmingWhitespace())); free space there or name another target"
            )
        }
        return BackupError("cannot \(doing): \(run.lastError.trimmingWhitespace())")
    }
}

extension ProgramRun: Error {}
