import CairnCore
import CairnSimulation

/// Seed 000's exam session played through the library on a stopped clock (see
/// `ExamSessionBudget`): what it writes locally, commits and pushes, beside the seed's
/// Firestore budgets.
struct ExamSessionFigures {
    let bench: Workbench

    func run() throws -> [(String, String)] {
        let folder = try bench.scratch("exam-session")
        defer { bench.remove(folder) }
        let report = try ExamSessionBudget().run(in: folder, schemaSet: bench.schemaSet)
        return [
            ("local document writes (files written and renamed)", report.localWrites.formatted()),
            ("checkpoints (commits)", report.checkpoints.formatted()),
            ("pushes", report.pushes.formatted()),
            ("bytes the remote grew by", report.bytesPushed.formatted()),
            ("Firestore writes if every answer and tick were one (seed 000 §10.1, \"bad\")", report.naiveWrites.formatted()),
            ("Firestore writes the seed recommends at most", report.recommendedWrites.formatted()),
        ]
    }
}
