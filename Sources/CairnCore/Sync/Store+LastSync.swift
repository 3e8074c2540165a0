import Git

extension Store {
    /// The remote's checkpoint as of the last sync (what the last fetch found on it); nil
    /// without a remote or before the first sync.
    public func lastSynced() throws(CairnError) -> CheckpointID? {
        try translatingErrors("cannot read the remote's branch") { () throws -> CheckpointID? in
            guard try remote() != nil else { return nil }
            return try repository.reference(Self.remoteBranch).map(CheckpointID.init)
        }
    }
}
