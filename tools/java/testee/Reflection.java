// Calls the testee makes by reflection (into classes a release may not have), with the exception Paimon raised
// rather than reflection's wrapper.
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

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

    /** Whether `args` can be passed to parameters of these types (a primitive takes its boxed value). */
    private static boolean fits(Class<?>[] types, Object[] args) {
        if (types.length != args.length) {
            return false;
        }
        for (int i = 0; i < types.length; i++) {
            Class<?> type = types[i];
            if (type.isPrimitive()) {
                type = MethodType.methodType(type).wrap().returnType();
            }
            if (args[i] != null && !type.isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first of `argLists` that fits a public method `name` of `target`: for the calls
     * whose signature grew an argument between releases of one API era (FileStore.newCommit gained the table in 1.1).
     */
    static Object invoke(Object target, String name, Object[]... argLists) throws Exception {
        for (Object[] args : argLists) {
            for (Method m : target.getClass().getMethods()) {
                if (m.getName().equals(name) && fits(m.getParameterTypes(), args)) {
                    return call(() -> m.invoke(target, args));
                }
            }
        }
        throw new NoSuchMethodException(name + " of " + target.getClass().getName());
    }

    /** As invoke, for a constructor of `type` (HashBucketAssigner gained maxBucketsNum in 1.1). */
    static <T> T construct(Class<T> type, Object[]... argLists) throws Exception {
        for (Object[] args : argLists) {
            for (Constructor<?> c : type.getConstructors()) {
                if (fits(c.getParameterTypes(), args)) {
                    return type.cast(call(() -> c.newInstance(args)));
                }
            }
        }
        throw new NoSuchMethodException("constructor of " + type.getName() + " for " + Arrays.toString(argLists));
    }
}
