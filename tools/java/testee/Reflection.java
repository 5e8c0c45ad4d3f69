// Calls the testee makes by reflection (into classes a release may not have), with the exception Paimon raised
// rather than reflection's wrapper.
import java.lang.reflect.InvocationTargetException;

final class Reflection {

    private Reflection() {}

    interface Call {
        Object run() throws Exception;
    }

    /** The call's result; the exception the called method raised, unwrapped. */
    static Object call(Call call) throws Exception {
        try {
            return call.run();
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            throw e;
        }
    }
}
