import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The build's check that every jar a module makes carries the project's license: run by each module's {@code verify}
 * phase (exec-maven-plugin in the parent POM) as {@code java CheckLicenseFiles.java ROOT TARGET}.
 *
 * <p>Every {@code *.jar} directly in {@code TARGET} (but the shade plugin's {@code original-*.jar}) and anywhere under {@code TARGET/dist} (the shaded and
 * distribution jars; {@code TARGET/lib} holds third-party jars and is not looked at) must hold
 * {@code META-INF/LICENSE} and {@code META-INF/NOTICE}, each byte for byte equal to the file of the same name in
 * {@code ROOT}. Exit status 0 when they all do (also when there is no jar, as in a pom-packaged module); otherwise
 * 1, after one line per jar and entry naming what is missing or different.
 */
public final class CheckLicenseFiles {

    private static final List<String> FILES = List.of("LICENSE", "NOTICE");

    private CheckLicenseFiles() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: java CheckLicenseFiles.java ROOT_DIRECTORY TARGET_DIRECTORY");
            System.exit(2);
        }
        Path root = Path.of(args[0]);
        Path target = Path.of(args[1]);
        List<byte[]> expected = new ArrayList<>();
        for (String name : FILES) {
            expected.add(Files.readAllBytes(root.resolve(name)));
        }
        List<Path> jars = jars(target);
        List<String> problems = new ArrayList<>();
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (int i = 0; i < FILES.size(); i++) {
                    String entryName = "META-INF/" + FILES.get(i);
                    ZipEntry entry = zip.getEntry(entryName);
                    if (entry == null) {
                        problems.add(jar + ": no " + entryName);
                        continue;
                    }
                    byte[] actual;
                    try (InputStream in = zip.getInputStream(entry)) {
                        actual = in.readAllBytes();
                    }
                    if (!Arrays.equals(actual, expected.get(i))) {
                        problems.add(jar + ": " + entryName + " differs from " + root.resolve(FILES.get(i))
                                + " (" + actual.length + " bytes, expected " + expected.get(i).length + ")");
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            System.err.println("License files missing from jars (every jar must hold the root LICENSE and NOTICE"
                    + " in META-INF/: see the resources section of the parent POM):");
            problems.forEach(problem -> System.err.println("  " + problem));
            System.exit(1);
        }
        System.out.println("LICENSE and NOTICE present in " + jars.size() + " jar(s) of " + target);
    }

    private static List<Path> jars(Path target) throws IOException {
        List<Path> jars = new ArrayList<>();
        if (!Files.isDirectory(target)) {
            return jars;
        }
        try (Stream<Path> top = Files.list(target)) {
            top.filter(CheckLicenseFiles::isJar).filter(p -> !isShadeBackup(p)).sorted().forEach(jars::add);
        }
        Path dist = target.resolve("dist");
        if (Files.isDirectory(dist)) {
            try (Stream<Path> all = Files.walk(dist)) {
                all.filter(CheckLicenseFiles::isJar).sorted().forEach(jars::add);
            }
        }
        return jars;
    }

    /**
     * {@code original-*.jar}: the shade plugin's copy of the module jar before shading. It is never installed or
     * published, and a build that shades nothing new leaves an earlier build's copy behind, so checking it would
     * fail an incremental build on a file this build did not make.
     */
    private static boolean isShadeBackup(Path path) {
        return path.getFileName().toString().startsWith("original-");
    }

    private static boolean isJar(Path path) {
        return Files.isRegularFile(path) && path.getFileName().toString().endsWith(".jar");
    }
}
