// Puts Maven artifacts on a sandbox run's classpath:
//   java Fetch.java REPOSITORY_URL TARGET_DIR group:artifact:version...
// The jar of each coordinate is downloaded from the repository's standard layout (https:// or
// file:// for a local repository). Transitive dependencies are not resolved: name them too.
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

public class Fetch {
    public static void main(String[] args) throws Exception {
        String repository = args[0].replaceAll("/+$", "");
        Path target = Path.of(args[1]);
        Files.createDirectories(target);
        int failures = 0;
        for (int i = 2; i < args.length; i++) {
            String[] parts = args[i].split(":");
            if (parts.length != 3) {
                System.err.println("not a Maven coordinate (group:artifact:version): " + args[i]);
                failures++;
                continue;
            }
            String file = parts[1] + "-" + parts[2] + ".jar";
            String url = repository + "/" + parts[0].replace('.', '/') + "/" + parts[1] + "/" + parts[2] + "/" + file;
            try (InputStream in = new URL(url).openStream()) {
                Files.copy(in, target.resolve(file), StandardCopyOption.REPLACE_EXISTING);
                System.err.println("fetched " + args[i]);
            } catch (Exception e) {
                System.err.println("could not fetch " + args[i] + " from " + url + ": " + e);
                failures++;
            }
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
