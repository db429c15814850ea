package io.lsmpolicies.feeds.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.feeds.server.ApiRequest.Count;
import io.lsmpolicies.feeds.server.ApiRequest.Delete;
import io.lsmpolicies.feeds.server.ApiRequest.FeedStats;
import io.lsmpolicies.feeds.server.ApiRequest.Flush;
import io.lsmpolicies.feeds.server.ApiRequest.Get;
import io.lsmpolicies.feeds.server.ApiRequest.Health;
import io.lsmpolicies.feeds.server.ApiRequest.Metrics;
import io.lsmpolicies.feeds.server.ApiRequest.Range;
import io.lsmpolicies.records.KeyEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Reads an {@link ApiRequest} from an HTTP method and request target. A pure function of its arguments: it
 * touches no store and no channel, so it is fuzzed on its own ({@code ParserFuzzTest#httpRequest}). A
 * request either parses or is refused with an {@link ApiRequestException} carrying the status to answer (400 bad
 * parameter, 404 unknown resource, 405 method not allowed); no other exception escapes.
 */
public final class RequestParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RequestParser() {
    }

    /**
     * Parses a request.
     *
     * @param method   the HTTP method's name ({@code GET}, {@code DELETE}, ...)
     * @param target   the request target as the HTTP decoder gives it (one char per byte)
     * @param datasets the primary key fields of a dataset, by name; null if there is no such dataset
     * @param feeds    whether a feed of that name exists
     * @throws ApiRequestException with the status to answer: 400, 404 or 405
     */
    public static ApiRequest parse(String method, String target, Function<String, List<String>> datasets,
            Predicate<String> feeds) throws ApiRequestException {
        if (target.isEmpty() || target.charAt(0) != '/') {
            throw ApiRequestException.badRequest("the request target must be a path starting with '/'");
        }
        int q = target.indexOf('?');
        String rawPath = q < 0 ? target : target.substring(0, q);
        List<String> seg = new ArrayList<>();
        for (String s : rawPath.split("/", -1)) {
            if (!s.isEmpty()) {
                seg.add(decode(s, false, "path segment"));
            }
        }
        Map<String, String> params = q < 0 ? Map.of() : query(target.substring(q + 1));
        if (seg.size() == 1 && seg.get(0).equals("health")) {
            return only("GET", method, params, new Health());
        }
        if (seg.size() == 3 && seg.get(0).equals("feeds") && seg.get(2).equals("stats")) {
            if (!feeds.test(seg.get(1))) {
                throw ApiRequestException.notFound("no feed '" + seg.get(1) + "'");
            }
            return only("GET", method, params, new FeedStats(seg.get(1)));
        }
        if (seg.size() == 5 && seg.get(0).equals("datasets") && seg.get(2).equals("partitions")
                && seg.get(4).equals("reopen")) {
            if (datasets.apply(seg.get(1)) == null) {
                throw ApiRequestException.notFound("no dataset '" + seg.get(1) + "'");
            }
            if (!seg.get(3).matches("\\d{1,9}")) {
                throw ApiRequestException.notFound("no partition '" + seg.get(3) + "' of dataset '" + seg.get(1)
                        + "': partitions are numbered from 0");
            }
            return only("POST", method, params, new ApiRequest.Reopen(seg.get(1), Integer.parseInt(seg.get(3))));
        }
        if (seg.size() >= 3 && seg.size() <= 4 && seg.get(0).equals("datasets")) {
            String name = seg.get(1);
            List<String> keyFields = datasets.apply(name);
            if (keyFields == null) {
                throw ApiRequestException.notFound("no dataset '" + name + "'");
            }
            String op = seg.get(2);
            if (seg.size() == 3) {
                switch (op) {
                    case "count":
                        return only("GET", method, params, new Count(name));
                    case "metrics":
                        return only("GET", method, params, new Metrics(name));
                    case "events":
                        allow(method, "GET");
                        return events(name, params);
                    case "flush":
                        return only("POST", method, params, new Flush(name));
                    case "records":
                        allow(method, "GET");
                        return range(name, keyFields, params);
                    default:
                        break;
                }
            } else if (op.equals("records")) {
                allow(method, "GET", "DELETE");
                noParameters(params);
                String keyText = seg.get(3);
                byte[] key = key(name, keyFields, keyText, "key", false);
                return method.equals("GET") ? new Get(name, key, keyText) : new Delete(name, key, keyText);
            }
        }
        throw ApiRequestException.notFound("no such resource: " + rawPath);
    }

    private static ApiRequest only(String allowed, String method, Map<String, String> params, ApiRequest r)
            throws ApiRequestException {
        allow(method, allowed);
        noParameters(params);
        return r;
    }

    private static void allow(String method, String... allowed) throws ApiRequestException {
        for (String a : allowed) {
            if (a.equals(method)) {
                return;
            }
        }
        throw new ApiRequestException(405, "method " + method + " is not allowed here; allowed: "
                + String.join(", ", allowed), String.join(", ", allowed));
    }

    private static void noParameters(Map<String, String> params) throws ApiRequestException {
        if (!params.isEmpty()) {
            throw ApiRequestException.badRequest("unknown parameter '" + params.keySet().iterator().next()
                    + "'; this resource takes none");
        }
    }

    private static Range range(String dataset, List<String> keyFields, Map<String, String> params)
            throws ApiRequestException {
        for (String p : params.keySet()) {
            if (!p.equals("from") && !p.equals("to") && !p.equals("limit")) {
                throw ApiRequestException.badRequest("unknown parameter '" + p + "'; expected from, to, limit");
            }
        }
        String f = params.get("from");
        String t = params.get("to");
        byte[] from = f == null ? null : key(dataset, keyFields, f, "from", true);
        byte[] to = t == null ? null : key(dataset, keyFields, t, "to", true);
        return new Range(dataset, from, to, limit(params));
    }

    /** The {@code limit} parameter, {@link ApiRequest#DEFAULT_LIMIT} if absent. */
    private static int limit(Map<String, String> params) throws ApiRequestException {
        String l = params.get("limit");
        if (l == null) {
            return ApiRequest.DEFAULT_LIMIT;
        }
        int limit;
        try {
            limit = Integer.parseInt(l);
        } catch (NumberFormatException e) {
            limit = -1;
        }
        if (limit < 1 || limit > ApiRequest.MAX_LIMIT) {
            throw ApiRequestException.badRequest("limit must be an integer in [1, " + ApiRequest.MAX_LIMIT
                    + "], was '" + l + "'");
        }
        return limit;
    }

    private static ApiRequest.Events events(String dataset, Map<String, String> params) throws ApiRequestException {
        for (String p : params.keySet()) {
            if (!p.equals("limit")) {
                throw ApiRequestException.badRequest("unknown parameter '" + p + "'; expected limit");
            }
        }
        return new ApiRequest.Events(dataset, limit(params));
    }

    /** The query's parameters, decoded, in order; a parameter given twice is refused. */
    private static Map<String, String> query(String query) throws ApiRequestException {
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : query.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), true, "parameter name");
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true, "parameter " + name);
            if (params.put(name, value) != null) {
                throw ApiRequestException.badRequest("parameter '" + name + "' is given twice");
            }
        }
        return params;
    }

    /**
     * Percent-decodes {@code s} as UTF-8; in a query, {@code +} is a space.
     *
     * <p>Why not Netty's {@code QueryStringDecoder}, which the server has on its class path: it throws an
     * unchecked {@code IllegalArgumentException} for a bad escape (which reached the client as a 500 before this
     * parser), and it decodes bytes that are not UTF-8 to U+FFFD, so a malformed key would silently become another,
     * valid key and read or delete the wrong record; here both are a 400 that says which part of the request is
     * wrong. It also keeps a repeated parameter as a list where a repeated parameter here is refused.
     *
     * @throws ApiRequestException if a {@code %} does not start two hex digits or the bytes are not UTF-8
     */
    private static String decode(String s, boolean query, String what) throws ApiRequestException {
        if (s.indexOf('%') < 0 && (!query || s.indexOf('+') < 0)) {
            for (int i = 0; i < s.length(); i++) {
                if (s.charAt(i) >= 0x80) { // a raw byte the decoder gave as a char: decode them all as UTF-8
                    return utf8(s, query, what);
                }
            }
            return s;
        }
        return utf8(s, query, what);
    }

    private static String utf8(String s, boolean query, String what) throws ApiRequestException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
                if (lo < 0) {
                    throw ApiRequestException.badRequest(what + ": '%' at " + i + " is not followed by two hex"
                            + " digits");
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c == '+' && query) {
                bytes.write(' ');
            } else if (c > 0xFF) {
                throw ApiRequestException.badRequest(what + ": character U+" + Integer.toHexString(c)
                        + " is not a byte");
            } else {
                bytes.write(c);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw ApiRequestException.badRequest(what + " is not UTF-8 once percent-decoded");
        }
    }

    /**
     * The encoded key {@code text} names, for a dataset with primary key {@code fields} (see the class comment).
     *
     * @param prefixAllowed whether a JSON array may give fewer values than there are fields (a range bound)
     * @throws ApiRequestException (400) naming {@code what}
     */
    public static byte[] key(String dataset, List<String> fields, String text, String what, boolean prefixAllowed)
            throws ApiRequestException {
        if (text.isEmpty()) {
            throw ApiRequestException.badRequest(what + " must not be empty");
        }
        if (text.startsWith("[")) {
            JsonNode array;
            try {
                array = JSON.readTree(text);
            } catch (IOException e) { // including Jackson's limits on nesting and number length
                array = null;
            }
            if (array == null || !array.isArray() || array.isEmpty() || array.size() > fields.size()
                    || (!prefixAllowed && array.size() != fields.size())) {
                throw ApiRequestException.badRequest(what + " '" + text + "' must be a JSON array of "
                        + (prefixAllowed ? "1 to " : "") + fields.size() + " value(s), for " + fields);
            }
            Object[] values = new Object[array.size()];
            for (int i = 0; i < values.length; i++) {
                JsonNode v = array.get(i);
                if (v.isTextual()) {
                    values[i] = v.asText();
                } else if (v.isIntegralNumber() && v.canConvertToLong()) {
                    values[i] = v.asLong();
                } else if (v.isFloatingPointNumber()) {
                    values[i] = v.asDouble();
                } else {
                    throw ApiRequestException.badRequest(what + ": key field " + fields.get(i) + " is " + v
                            + ", not a string, int64 or double");
                }
            }
            return KeyEncoder.of(values);
        }
        if (fields.size() != 1) {
            throw ApiRequestException.badRequest("dataset " + dataset + " has a composite key " + fields
                    + "; give '" + what + "' as a JSON array, e.g. [\"a\",1]");
        }
        if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
            return KeyEncoder.of(text.substring(1, text.length() - 1));
        }
        if (text.matches("[+-]?\\d+")) {
            try {
                return KeyEncoder.of(Long.parseLong(text));
            } catch (NumberFormatException e) {
                throw ApiRequestException.badRequest(what + " " + text + " is beyond int64");
            }
        }
        return KeyEncoder.of(text);
    }

}
