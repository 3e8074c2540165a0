import CairnCore
import CairnMerge
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The schema sets shipped with Cairn (the folders beside this file), as package resources:
/// an app's tests, the quickstart and the tool find them from any folder.
///
/// ```swift
/// let files = try #require(SchemaSets.named("life-in-uk"))
/// try home.createStore("u1", schemaSet: files)
/// ```
public enum SchemaSets {
    /// The names of the shipped sets, sorted (`bonfire`, `edumind`, `life-in-uk`, …).
    public static var names: [String] {
        guard let folder = resources else { return [] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
            !name.hasPrefix(".") && files(in: folder + "/" + name) != nil
        }.sorted()
    }

    /// The shipped set `name` as a store takes it (its schemas and migrations), or nil when
    /// Cairn ships no such set.
    public static func named(_ name: String) -> SchemaSetFiles? {
        guard let folder = resources, !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { return nil }
        return files(in: folder + "/" + name).map { SchemaSetFiles(name: name, files: $0) }
    }

    /// The folder that holds the sets, or nil when the program runs without them.
    ///
    /// SwiftPM copies a target's resources beside the program it builds (a tool, an app, a
    /// test bundle), as `Cairn_CairnSchemaSets.resources`; they are looked for there, from the
    /// program's own path, so a program copied elsewhere alone simply has no shipped sets.
    /// (Not through `Bundle.module`: on Linux it stops the program when they are missing, and
    /// asking it would link the whole of Foundation, with ICU, into every program that names a
    /// set, and slow each of its starts.)
    static let resources: String? = {
        guard let program = Syscalls.executablePath() else { return nil }
        let beside = FileSystem.parent(of: program) + "/Cairn_CairnSchemaSets.resources"
        return FileManager.default.fileExists(atPath: beside) ? beside : nil
    }()

    /// The set files of a folder (schemas and migrations), nil when it holds no schema.
    private static func files(in folder: String) -> [String: [UInt8]]? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(SchemaSetFiles.isSetFile)
        guard names.contains(where: { $0.hasSuffix(".schema.json") }) else { return nil }
        var files: [String: [UInt8]] = [:]
        for name in names {
            guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { return nil }
            files[name] = [UInt8](data)
        }
        return files
    }
}
