package io.lsmpolicies.merge.plot;

import java.awt.Color;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One colour per key (a system and policy, say) for every figure of a run, so that the same key has the same
 * colour in each of them, whatever the figure's series and their order. Built once from all the run's keys:
 * sorted, the first ten take the Tableau 10 colours, later ones hues spaced by the golden angle. Immutable.
 */
public final class SeriesColors {
    private static final Color[] TABLEAU_10 = {new Color(0x4E79A7), new Color(0xF28E2B), new Color(0xE15759),
        new Color(0x76B7B2), new Color(0x59A14F), new Color(0xEDC948), new Color(0xB07AA1), new Color(0xFF9DA7),
        new Color(0x9C755F), new Color(0x79706E)};

    private final Map<String, Color> colors;

    private SeriesColors(Map<String, Color> colors) {
        this.colors = colors;
    }

    /**
     * {@return the colours of {@code keys} (duplicates ignored)}
     *
     * @param keys the series' keys
     */
    public static SeriesColors of(Collection<String> keys) {
        Map<String, Color> out = new TreeMap<>();
        int i = 0;
        for (String key : new TreeSet<>(keys)) {
            out.put(key, i < TABLEAU_10.length ? TABLEAU_10[i]
                    : Color.getHSBColor((float) ((i - TABLEAU_10.length) * 0.381966 % 1.0), 0.65f, 0.75f));
            i++;
        }
        return new SeriesColors(Map.copyOf(out));
    }

    /**
     * The colour of {@code key}.
     *
     * @param key a series' key
     * @return its colour
     * @throws IllegalArgumentException if {@code key} was not among the keys this was built from
     */
    public Color of(String key) {
        Color c = colors.get(key);
        if (c == null) {
            throw new IllegalArgumentException("no colour for series key '" + key + "'; known: " + colors.keySet());
        }
        return c;
    }
}
