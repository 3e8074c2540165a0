import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarFile;

import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.Status;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * A store opened with JGit, as an IDE built on it (Eclipse, IntelliJ's git4idea) would.
 *
 * <pre>
 * JGitClient STORE read
 *     prints the library, every path of the index, then the status ("clean", or one line
 *     per path that is not), and fails when the index cannot be read or the status is not clean
 * JGitClient STORE commit DOCUMENT FIELD=VALUE...
 *     the same checks, then writes the document DOCUMENT (users/u1/examAttempts/a9) in
 *     Cairn's canonical JSON, stages it and commits it on the current branch
 * </pre>
 *
 * scripts/git-clients.sh compiles it against Debian's libjgit-java and runs it.
 */
public final class JGitClient {
    private JGitClient() {}

    public static void main(String[] arguments) {
        boolean commit = arguments.length > 1 && arguments[1].equals("commit");
        boolean read = arguments.length == 2 && arguments[1].equals("read");
        if (!read && !(commit && arguments.length > 2)) {
            System.err.println("usage: JGitClient STORE read | STORE commit DOCUMENT FIELD=VALUE...");
            System.exit(64);
        }
        System.out.println("library jgit " + version());
        try (Git git = Git.open(new File(arguments[0]))) {
            check(git);
            if (commit) {
                commit(git, arguments[2], parseFields(Arrays.copyOfRange(arguments, 3, arguments.length)));
            }
        } catch (Exception error) {
            // What the library threw, as one line for the test to show.
            System.err.println("jgit: " + error.getClass().getSimpleName() + ": " + error.getMessage());
            System.exit(1);
        }
    }

    /** The version of the JGit jar on the class path, from its manifest. */
    static String version() {
        try (JarFile jar = new JarFile(Git.class.getProtectionDomain().getCodeSource().getLocation().getPath())) {
            return jar.getManifest().getMainAttributes().getValue("Bundle-Version");
        } catch (IOException error) {
            return "unknown (" + error.getMessage() + ")";
        }
    }

    /** Prints the index and the status; exits 1 when the status is not clean. */
    static void check(Git git) throws Exception {
        DirCache index = git.getRepository().readDirCache();
        for (int position = 0; position < index.getEntryCount(); position++) {
            System.out.println("entry " + index.getEntry(position).getPathString());
        }
        List<String> changes = unclean(git.status().call());
        for (String change : changes) {
            System.out.println("status " + change);
        }
        if (!changes.isEmpty()) {
            System.err.println("jgit: the status is not clean");
            System.exit(1);
        }
        System.out.println("clean");
    }

    /** Every path the status reports, each with what JGit found. */
    static List<String> unclean(Status status) {
        Map<String, Set<String>> kinds = new TreeMap<>();
        kinds.put("added", status.getAdded());
        kinds.put("changed", status.getChanged());
        kinds.put("removed", status.getRemoved());
        kinds.put("missing", status.getMissing());
        kinds.put("modified", status.getModified());
        kinds.put("untracked", status.getUntracked());
        kinds.put("conflicting", status.getConflicting());
        List<String> changes = new ArrayList<>();
        kinds.forEach((kind, paths) -> paths.forEach(path -> changes.add(path + " " + kind)));
        Collections.sort(changes);
        return changes;
    }

    /** Writes the document, stages it and commits it on the branch HEAD names. */
    static void commit(Git git, String document, Map<String, Object> fields) throws Exception {
        String relative = document + ".json";
        File file = new File(git.getRepository().getWorkTree(), relative);
        Files.createDirectories(file.getParentFile().toPath());
        Files.write(file.toPath(), canonical(fields).getBytes(StandardCharsets.UTF_8));
        git.add().addFilepattern(relative).call();
        RevCommit created = git.commit().setMessage("Add " + document + " with JGit\n").call();
        System.out.println("commit " + created.getName());
        List<String> changes = unclean(git.status().call());
        if (!changes.isEmpty()) {
            System.err.println("jgit: the status after the commit is not clean: " + changes);
            System.exit(1);
        }
    }

    /** FIELD=VALUE arguments as an object: digits are integers, anything else a string. */
    static Map<String, Object> parseFields(String[] arguments) {
        Map<String, Object> fields = new TreeMap<>(JGitClient::compareUTF8);
        for (String argument : arguments) {
            int equals = argument.indexOf('=');
            String name = equals < 0 ? argument : argument.substring(0, equals);
            String value = equals < 0 ? "" : argument.substring(equals + 1);
            fields.put(name, !value.isEmpty() && value.chars().allMatch(Character::isDigit) ? (Object) Long.valueOf(value) : value);
        }
        return fields;
    }

    /** Keys in Cairn's order: by their UTF-8 bytes (Java's own order is by UTF-16 units). */
    static int compareUTF8(String left, String right) {
        return Arrays.compareUnsigned(left.getBytes(StandardCharsets.UTF_8), right.getBytes(StandardCharsets.UTF_8));
    }

    /** A flat object as Cairn writes it: keys sorted, two-space indent, a final newline. */
    static String canonical(Map<String, Object> fields) {
        if (fields.isEmpty()) {
            return "{}\n";
        }
        StringBuilder text = new StringBuilder("{");
        String separator = "\n  ";
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            text.append(separator).append(quoted(field.getKey())).append(": ");
            Object value = field.getValue();
            text.append(value instanceof Long ? value.toString() : quoted((String) value));
            separator = ",\n  ";
        }
        return text.append("\n}\n").toString();
    }

    /** A JSON string escaped as Cairn escapes it: quote, backslash and control characters only. */
    static String quoted(String value) {
        StringBuilder text = new StringBuilder("\"");
        for (char character : value.toCharArray()) {
            switch (character) {
                case '"': text.append("\\\""); break;
                case '\\': text.append("\\\\"); break;
                case '\n': text.append("\\n"); break;
                case '\r': text.append("\\r"); break;
                case '\t': text.append("\\t"); break;
                case '\b': text.append("\\b"); break;
                case '\f': text.append("\\f"); break;
                default:
                    if (character < 0x20) {
                        text.append(String.format("\\u%04x", (int) character));
                    } else {
                        text.append(character);
                    }
            }
        }
        return text.append('"').toString();
    }
}
