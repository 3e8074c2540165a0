// The entry point libFuzzer calls, compiled by scripts/fuzz.sh with CairnMerge, CairnMergeLaws and
// CairnFuzzing into one fuzzing binary. The target is named by CAIRN_FUZZ_TARGET.
import CairnFuzzing

#if canImport(Glibc)
import Glibc
#endif

/// The target this process fuzzes, read once.
let selectedTarget: FuzzTarget = {
    guard let name = getenv("CAIRN_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        print("set CAIRN_FUZZ_TARGET to one of: \(names)")
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget.run(bytes)
    return 0
}
