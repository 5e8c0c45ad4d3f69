/*
 * How the table tools (TablesReader, Testee, VerdictProbe) report an exception Java Paimon threw: each
 * cause's class and message, then the frames where the innermost cause was thrown, so a report
 * says why Java refused or misread a table.
 */
final class Failure {
    private static final int MAX_CAUSES = 8;
    private static final int MAX_FRAMES = 6;
    private static final int MAX_CHARS = 2000;

    private Failure() {}

    static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        Throwable c = e;
        Throwable root = e;
        int depth = 0;
        while (c != null && depth++ < MAX_CAUSES) {
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(c.getClass().getName()).append(": ").append(c.getMessage());
            root = c;
            c = c.getCause() == c ? null : c.getCause();
        }
        StackTraceElement[] frames = root.getStackTrace();
        for (int i = 0; i < Math.min(MAX_FRAMES, frames.length); i++) {
            sb.append(i == 0 ? " at " : " < ").append(frames[i]);
        }
        String s = sb.toString();
        return s.length() > MAX_CHARS ? s.substring(0, MAX_CHARS) : s;
    }
}
