import ArgumentParser

/// The options of `cairn server rebalance` (and of `cairn-server rebalance`).
package struct RebalanceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The shard that joins: HAProxy's backend name for it.", valueName: "name"))
    package var add: String

    @Option(
        name: .customLong("shard"),
        help: ArgumentHelp(
            "Each shard, the new one too, and the address of its administration (its --metrics address): name=http://host:port.",
            valueName: "name=url"))
    package var shards: [String] = []

    @Option(
        help: ArgumentHelp("HAProxy's runtime API: its stats socket at level admin, HOST:PORT or a socket's path.", valueName: "address"))
    package var haproxy: String

    @Option(
        name: .customLong("buckets-map"),
        help: ArgumentHelp("HAProxy's map of buckets, as its configuration names it (written as it changes).", valueName: "file"))
    package var bucketsMap: String

    @Option(
        name: .customLong("users-map"),
        help: ArgumentHelp("HAProxy's map of pinned users, as its configuration names it (written as it changes).", valueName: "file"))
    package var usersMap: String

    @Option(
        name: .customLong("admin-secret-file"),
        help: ArgumentHelp("The file of the operator's secret the shards were started with.", valueName: "file"))
    package var adminSecretFile: String

    package init() {}

    package func validate() throws {
        for shard in shards where !shard.contains("=") {
            throw ValidationError("--shard takes name=http://host:port, not \(shard)")
        }
        guard shards.contains(where: { $0.hasPrefix(add + "=") }) else {
            throw ValidationError("give the joining shard's address too: --shard \(add)=http://host:port")
        }
    }

    /// Each shard's name and administration URL.
    package var shardAddresses: [String: String] {
        Dictionary(
            shards.map { entry in
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { $1 })
    }

    package var arguments: [String] {
        ["--add", add, "--haproxy", haproxy, "--buckets-map", bucketsMap, "--users-map", usersMap, "--admin-secret-file", adminSecretFile]
            + shards.flatMap { ["--shard", $0] }
    }
}
