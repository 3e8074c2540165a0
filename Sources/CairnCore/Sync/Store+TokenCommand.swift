import Git

extension Store {
    /// The git config key of the command that prints a fresh ID token for the store's remote
    /// (`cairn remote set URL --token-command CMD`): the command is kept, never a token.
    public static let tokenCommandKey = "cairn.tokenCommand"

    /// The command that prints a token for the remote, if the store names one.
    public func tokenCommand() throws(CairnError) -> String? {
        let value = try translatingErrors("cannot read the store's configuration") { try repository.config(Self.tokenCommandKey) }
        return value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Names (or, with nil, forgets) the command that prints a token for the remote.
    public func setTokenCommand(_ command: String?) throws(CairnError) {
        try locked("cannot set the token command") {
            if let command, !command.isEmpty {
                try repository.setConfig(Self.tokenCommandKey, to: command)
            } else if try repository.config(Self.tokenCommandKey) != nil {
                try repository.removeConfig(Self.tokenCommandKey)
            }
        }
    }
}
