package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.lsmpolicies.records.KeyEncoder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The HTTP API's request parser, without a server: what parses, and the status of what is refused. */
class RequestParserTest {
    private static final Map<String, List<String>> DATASETS = Map.of("usertable", List.of("YCSB_KEY"),
            "orders", List.of("customer", "id"));

    private static ApiRequest parse(String method, String target) throws ApiRequestException {
        return RequestParser.parse(method, target, DATASETS::get, Set.of("ycsb")::contains);
    }

    private static ApiRequestException refused(String method, String target) {
        return catchThrowableOfType(ApiRequestException.class, () -> parse(method, target));
    }

    @Test
    void everyResourceParses() throws Exception {
        assertThat(parse("GET", "/health")).isInstanceOf(ApiRequest.Health.class);
        assertThat(parse("GET", "//feeds/ycsb/stats/")).isEqualTo(new ApiRequest.FeedStats("ycsb"));
        assertThat(parse("GET", "/datasets/usertable/count")).isEqualTo(new ApiRequest.Count("usertable"));
        assertThat(parse("GET", "/datasets/usertable/metrics")).isEqualTo(new ApiRequest.Metrics("usertable"));
        assertThat(parse("POST", "/datasets/orders/flush")).isEqualTo(new ApiRequest.Flush("orders"));
        ApiRequest.Range r = (ApiRequest.Range) parse("GET", "/datasets/usertable/records?from=user1&to=user2"
                + "&limit=10000");
        assertThat(r.from()).isEqualTo(KeyEncoder.of("user1"));
        assertThat(r.to()).isEqualTo(KeyEncoder.of("user2"));
        assertThat(r.limit()).isEqualTo(10_000);
        ApiRequest.Range open = (ApiRequest.Range) parse("GET", "/datasets/usertable/records");
        assertThat(open.from()).isNull();
        assertThat(open.to()).isNull();
        assertThat(open.limit()).isEqualTo(ApiRequest.DEFAULT_LIMIT);
        ApiRequest.Delete d = (ApiRequest.Delete) parse("DELETE", "/datasets/orders/records/%5B%22bo%2Cb%22%2C-1%5D");
        assertThat(d.key()).isEqualTo(KeyEncoder.of("bo,b", -1L));
        assertThat(d.changesState()).isTrue();
        ApiRequest.Get g = (ApiRequest.Get) parse("GET", "/datasets/usertable/records/42");
        assertThat(g.key()).isEqualTo(KeyEncoder.of(42L));
        assertThat(((ApiRequest.Get) parse("GET", "/datasets/usertable/records/%2242%22")).key())
                .isEqualTo(KeyEncoder.of("42"));
    }

    @Test
    void percentDecodingIsStrictAndAPlusIsASpaceOnlyInTheQuery() throws Exception {
        assertThat(((ApiRequest.Get) parse("GET", "/datasets/usertable/records/a+b%2Fc")).key())
                .isEqualTo(KeyEncoder.of("a+b/c"));
        assertThat(((ApiRequest.Range) parse("GET", "/datasets/usertable/records?from=a+b")).from())
                .isEqualTo(KeyEncoder.of("a b"));
        assertThat(((ApiRequest.Get) parse("GET", "/datasets/usertable/records/%C3%A9t%C3%A9")).key())
                .isEqualTo(KeyEncoder.of("été"));
        // A raw byte above 0x7F (one char per byte from the decoder) is read as UTF-8 too.
        assertThat(((ApiRequest.Get) parse("GET", "/datasets/usertable/records/\u00c3\u00a9")).key())
                .isEqualTo(KeyEncoder.of("é"));
        for (String bad : List.of("/datasets/%zz/count", "/datasets/usertable/records?from=%",
                "/datasets/usertable/records?from=%4", "/datasets/usertable/records/%ff%fe",
                "/datasets/usertable/records/\u00ff")) {
            ApiRequestException e = refused("GET", bad);
            assertThat(e).as(bad).isNotNull();
            assertThat(e.status()).as(bad).isEqualTo(400);
        }
    }

    /** Regression: these were IllegalArgumentExceptions of Netty's QueryStringDecoder, answered 500. */
    @Test
    void aBadPercentEscapeIsA400NotA500() {
        assertThat(refused("GET", "/datasets/%zz/count").getMessage()).contains("two hex digits");
        assertThat(refused("GET", "/datasets/usertable/records?from=%").status()).isEqualTo(400);
    }

    @Test
    void parametersAreCheckedByName() throws Exception {
        for (String bad : List.of("limit=0", "limit=abc", "limit=10001", "limit=", "colour=red", "from=a&from=b",
                "from=", "from=99999999999999999999")) {
            ApiRequestException e = refused("GET", "/datasets/usertable/records?" + bad);
            assertThat(e).as(bad).isNotNull();
            assertThat(e.status()).as(bad).isEqualTo(400);
            assertThat(e.getMessage()).as(bad).isNotBlank();
        }
        assertThat(refused("GET", "/health?verbose=1").status()).isEqualTo(400);
        assertThat(((ApiRequest.Range) parse("GET", "/datasets/usertable/records?from=a;to=b")).from())
                .as("';' does not separate parameters").isEqualTo(KeyEncoder.of("a;to=b"));
        assertThat(refused("GET", "/datasets/usertable/records/a?x=1").status()).isEqualTo(400);
    }

    @Test
    void compositeKeysAreJsonArrays() {
        assertThat(refused("GET", "/datasets/orders/records/ann").getMessage()).contains("composite key");
        assertThat(refused("GET", "/datasets/orders/records/%5B%22ann%22%5D").getMessage()).contains("2 value(s)");
        assertThat(refused("GET", "/datasets/orders/records/%5B%22ann%22,true%5D").getMessage())
                .contains("key field id");
        assertThat(refused("GET", "/datasets/orders/records/" + "%5B".repeat(2000)).status()).isEqualTo(400);
        assertThat(refused("GET", "/datasets/orders/records/%5B1" + "0".repeat(2000) + "%5D").status())
                .isEqualTo(400);
    }

    @Test
    void unknownResourcesAre404AndWrongMethods405WithTheAllowedOnes() {
        assertThat(refused("GET", "/datasets/nope/count").status()).isEqualTo(404);
        assertThat(refused("GET", "/feeds/nope/stats").status()).isEqualTo(404);
        assertThat(refused("GET", "/nothing/here").status()).isEqualTo(404);
        assertThat(refused("GET", "/datasets/usertable/records/a/b").status()).isEqualTo(404);
        assertThat(refused("GET", "http://host/health").status()).isEqualTo(400);
        assertThat(refused("GET", "").status()).isEqualTo(400);
        ApiRequestException put = refused("PUT", "/datasets/usertable/records/a");
        assertThat(put.status()).isEqualTo(405);
        assertThat(put.allow()).isEqualTo("GET, DELETE");
        assertThat(refused("GET", "/datasets/usertable/flush").allow()).isEqualTo("POST");
        assertThat(refused("DELETE", "/datasets/usertable/records").allow()).isEqualTo("GET");
        assertThat(refused("POST", "/health").status()).isEqualTo(405);
    }
}
