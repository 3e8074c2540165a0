import ArgumentParser

/// The options of `cairn server backup` (and of `cairn-server backup`, which it becomes).
package struct BackupOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The folder of the users' repositories a server serves.", valueName: "dir"))
    package var folder: String

    @Option(help: ArgumentHelp("Where the backup goes: s3://BUCKET/PREFIX, or an absolute folder.", valueName: "target"))
    package var to: String

    @Option(
        name: .customLong("s3-endpoint"),
        help: ArgumentHelp("The object store's address (default: AWS_ENDPOINT_URL, else AWS S3 itself).", valueName: "url"))
    package var s3Endpoint: String?

    package init() {}

    /// The options again, as a command line.
    package var arguments: [String] {
        [folder, "--to", to] + (s3Endpoint.map { ["--s3-endpoint", $0] } ?? [])
    }
}

/// The options of `cairn server restore` (and of `cairn-server restore`).
package struct RestoreOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The folder to restore the users' repositories into: empty, unless --force.", valueName: "dir"))
    package var folder: String

    @Option(help: ArgumentHelp("The backup: s3://BUCKET/PREFIX, or an absolute folder.", valueName: "target"))
    package var from: String

    @Option(
        name: .customLong("s3-endpoint"),
        help: ArgumentHelp("The object store's address (default: AWS_ENDPOINT_URL, else AWS S3 itself).", valueName: "url"))
    package var s3Endpoint: String?

    @Option(
        help: ArgumentHelp(
            "The schema set the restored repositories check pushes against, as cairn server init --schema.", valueName: "set"))
    package var schema: String?

    @Flag(
        help:
            "Restore into a folder that holds repositories, replacing the backup's users (each replaced one kept in DIR/.cairn-shard/replaced/)."
    )
    package var force = false

    package init() {}

    package var arguments: [String] {
        [folder, "--from", from] + (s3Endpoint.map { ["--s3-endpoint", $0] } ?? []) + (schema.map { ["--schema", $0] } ?? [])
            + (force ? ["--force"] : [])
    }
}
