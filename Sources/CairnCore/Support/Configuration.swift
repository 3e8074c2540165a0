/// What a program tells the library about its surroundings, with the defaults the library
/// uses when it says nothing: how long a write waits for another process's lock, and the
/// credentials to offer a remote whose URL holds none. The library never reads the
/// process's environment: the command line builds this value from its `CAIRN_*` variables,
/// an app from its own settings, and gives it to its ``Home``, whose stores keep it. How a
/// sync retries and how long it waits for the network are each sync's own
/// (``SyncOptions``).
public struct Configuration: Sendable, Hashable {
    /// How long a write waits for another process's lock, in seconds.
    public var lockTimeout: Double
    /// The user name to offer a remote whose URL names none.
    public var username: String?
    /// The password to offer a remote whose URL holds none (never written into a store).
    public var password: String?
    /// The keys of encrypted stores (``DocumentCipher``): what opens an encrypted store — a
    /// ``Keyring`` the app keeps in its platform's secure storage (Keychain, KeyStore), or a
    /// key file or key text the command line names — never written into a store. Read only
    /// when an encrypted store is opened or created; plain stores ignore it. When nil, a
    /// store's own `cairn.keyFile` setting names its key file.
    public var keys: KeySource?
    /// The name this device's checkpoints and merges record (the `Cairn-Device-Name`
    /// trailer), as people know the device: `phone`, `Anna's laptop`. When nil, a store's own
    /// `cairn.deviceName` setting, else the machine's host name.
    public var deviceName: String?

    public init(
        lockTimeout: Double = Configuration.standardLockTimeout, username: String? = nil, password: String? = nil,
        keys: KeySource? = nil, deviceName: String? = nil
    ) {
        self.lockTimeout = lockTimeout
        self.username = username
        self.password = password
        self.keys = keys
        self.deviceName = deviceName
    }

    /// 10 s.
    public static let standardLockTimeout: Double = 10

    /// The defaults: a lock waited for 10 s, no credentials but the URL's.
    public static let standard = Configuration()
}
