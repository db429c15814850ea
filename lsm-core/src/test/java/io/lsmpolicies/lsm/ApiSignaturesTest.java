package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The API of this module names no internal type: no public or protected member of an API class takes, returns or
 * throws a class the API boundary calls internal ({@code docs/releasing.md}, "API boundary"), so a caller never needs
 * one, and the internal classes may change without breaking a caller. The API here is what the API-compatibility
 * check includes: every public class of {@code io.lsmpolicies.lsm}, {@code .events}, {@code .wal} and {@code .io},
 * and of the mixed packages only {@link #MIXED_API}.
 */
class ApiSignaturesTest {
    private static final String ROOT = "io.lsmpolicies.lsm";
    private static final Set<String> API_PACKAGES = Set.of(ROOT, ROOT + ".events", ROOT + ".wal", ROOT + ".io");
    /** The API classes of the packages that also hold internal ones (and the classes nested in them). */
    private static final Set<String> MIXED_API = Set.of(ROOT + ".manifest.ComponentSet",
            ROOT + ".manifest.TableRecord", ROOT + ".manifest.StoredOptions", ROOT + ".manifest.ManifestOptions",
            ROOT + ".sstable.SSTableOptions");

    @Test
    void noApiMemberNamesAnInternalType() throws Exception {
        List<Class<?>> classes = mainClasses();
        assertThat(classes).as("the module's classes").contains(LsmStore.class, StoreOptions.class);
        Set<String> found = new TreeSet<>();
        for (Class<?> c : classes) {
            if (!isApi(c)) {
                continue;
            }
            List<Member> members = new ArrayList<>();
            members.addAll(List.of(c.getDeclaredMethods()));
            members.addAll(List.of(c.getDeclaredConstructors()));
            members.addAll(List.of(c.getDeclaredFields()));
            for (Member m : members) {
                if (m.isSynthetic() || !(Modifier.isPublic(m.getModifiers())
                        || Modifier.isProtected(m.getModifiers()) && !Modifier.isFinal(c.getModifiers()))) {
                    continue;
                }
                for (Type t : signature(m)) {
                    for (Class<?> named : named(t, new ArrayList<>())) {
                        if (named.getName().startsWith(ROOT + ".") && !isApi(named)) {
                            found.add(c.getSimpleName() + "." + m.getName() + " names " + named.getName());
                        }
                    }
                }
            }
        }
        assertThat(found).as("API members that name an internal type").isEmpty();
    }

    /** Public (and every enclosing class public), in an API package or one of {@link #MIXED_API}. */
    private static boolean isApi(Class<?> c) {
        Class<?> top = c;
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
            top = k;
        }
        while (top.isArray()) {
            top = top.getComponentType();
        }
        return API_PACKAGES.contains(top.getPackageName()) || MIXED_API.contains(top.getName());
    }

    private static List<Type> signature(Member m) {
        List<Type> types = new ArrayList<>();
        if (m instanceof Field f) {
            types.add(f.getGenericType());
        } else {
            Executable e = (Executable) m;
            types.addAll(List.of(e.getGenericParameterTypes()));
            types.addAll(List.of(e.getGenericExceptionTypes()));
            if (e instanceof Method method) {
                types.add(method.getGenericReturnType());
            }
        }
        return types;
    }

    /** The classes {@code t} names, type arguments, bounds and array components included. */
    private static List<Class<?>> named(Type t, List<Class<?>> out) {
        if (t instanceof Class<?> c) {
            out.add(c.isArray() ? c.getComponentType() : c);
        } else if (t instanceof ParameterizedType p) {
            named(p.getRawType(), out);
            for (Type a : p.getActualTypeArguments()) {
                named(a, out);
            }
        } else if (t instanceof GenericArrayType g) {
            named(g.getGenericComponentType(), out);
        } else if (t instanceof WildcardType w) {
            Stream.concat(Stream.of(w.getUpperBounds()), Stream.of(w.getLowerBounds())).forEach(b -> named(b, out));
        } else if (t instanceof TypeVariable<?> v) {
            for (Type b : v.getBounds()) {
                named(b, out);
            }
        }
        return out;
    }

    /** Every class of this module's main output (not the tests'), loaded without initialising it. */
    private static List<Class<?>> mainClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path lsmStore = Path.of(LsmStore.class.getResource("LsmStore.class").toURI());
        Path root = lsmStore.getParent().getParent().getParent().getParent();
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String name = root.relativize(p).toString().replace('/', '.').replaceAll("\\.class$", "");
                if (!name.endsWith("package-info") && !name.endsWith("module-info")) {
                    classes.add(Class.forName(name, false, ApiSignaturesTest.class.getClassLoader()));
                }
            }
        }
        return classes;
    }
}
