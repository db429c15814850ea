package io.lsmpolicies.feeds.fuzz;

import io.lsmpolicies.feeds.BadRecord;
import io.lsmpolicies.feeds.ErrorKind;
import io.lsmpolicies.feeds.RecordFormat;
import io.lsmpolicies.feeds.RecordFramer;
import io.lsmpolicies.feeds.RecordSyntaxException;
import io.lsmpolicies.records.AdmValue;
import java.util.List;

/**
 * The framer fuzz target's sink: takes a candidate that parses as an {@code adm} record with a {@code YCSB_KEY}
 * field (as a feed would), collecting its offset; checks that every candidate is brace-framed and within the
 * limit.
 */
final class FramerTarget implements RecordFramer.Sink {
    private final List<Long> taken;

    FramerTarget(List<Long> taken) {
        this.taken = taken;
    }

    @Override
    public BadRecord onRecord(byte[] bytes, int from, int length, long offset) {
        if (length > 256 || bytes[from] != '{' || bytes[from + length - 1] != '}') {
            throw new AssertionError("bad candidate framed at " + offset);
        }
        try {
            AdmValue.Obj record = RecordFormat.ADM.parse(bytes, from, length);
            if (!record.fields().containsKey("YCSB_KEY")) {
                return new BadRecord(ErrorKind.MISSING_KEY, offset, "", "no key");
            }
        } catch (RecordSyntaxException e) {
            return new BadRecord(ErrorKind.SYNTAX, offset, "", e.getMessage());
        }
        taken.add(offset);
        return null;
    }

    @Override
    public void onBadRecord(BadRecord bad) {
    }
}
