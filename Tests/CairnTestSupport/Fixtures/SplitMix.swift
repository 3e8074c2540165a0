import CairnMerge

/// The seeded generator of `cairn simulate`, for tests whose random cases must replay.
public typealias SplitMix = CairnMerge.SplitMix
