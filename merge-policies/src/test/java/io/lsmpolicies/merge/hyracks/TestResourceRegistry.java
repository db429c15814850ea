package io.lsmpolicies.merge.hyracks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/**
 * A Hyracks resource registry for the tests: the contract AsterixDB 0.9.8's {@code PersistedResourceRegistry}
 * (in asterix-app, which is not worth its dependency tree here) implements, with the same field names and
 * the same reflective call of each class's static {@code fromJson(IPersistedResourceRegistry, JsonNode)}.
 * Classes are registered under their simple names.
 */
final class TestResourceRegistry implements IPersistedResourceRegistry {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, Class<? extends IJsonSerializable>> byId = new LinkedHashMap<>();

    /** A registry of our factories ({@link HyracksFactories#ALL}), as the AsterixDB extension registers them. */
    static TestResourceRegistry ofOurFactories() {
        return new TestResourceRegistry(HyracksFactories.ALL);
    }

    @SafeVarargs
    TestResourceRegistry(Class<? extends IJsonSerializable>... classes) {
        this(List.of(classes));
    }

    TestResourceRegistry(List<? extends Class<? extends IJsonSerializable>> classes) {
        for (Class<? extends IJsonSerializable> c : classes) {
            try {
                c.getMethod("fromJson", IPersistedResourceRegistry.class, JsonNode.class);
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(c.getName() + " has no static fromJson(registry, json)", e);
            }
            byId.put(c.getSimpleName(), c);
        }
    }

    @Override
    public ObjectNode getClassIdentifier(Class<? extends IJsonSerializable> clazz, long version) {
        String id = null;
        for (Map.Entry<String, Class<? extends IJsonSerializable>> e : byId.entrySet()) {
            if (e.getValue().equals(clazz)) {
                id = e.getKey();
            }
        }
        if (id == null) {
            throw new IllegalStateException("Class " + clazz.getName() + " was not registered.");
        }
        ObjectNode node = JSON.createObjectNode();
        node.put(TYPE_FIELD_ID, id);
        node.put(VERSION_FIELD_ID, version);
        node.put(CLASS_FIELD_ID, clazz.getName());
        return node;
    }

    @Override
    public IJsonSerializable deserialize(JsonNode json) throws HyracksDataException {
        Class<? extends IJsonSerializable> clazz = byId.get(json.get(TYPE_FIELD_ID).asText());
        if (clazz == null) {
            throw new IllegalStateException("No class with id " + json.get(TYPE_FIELD_ID) + " was registered.");
        }
        return fromJson(clazz, json);
    }

    @Override
    public IJsonSerializable deserializeOrDefault(JsonNode json, Class<? extends IJsonSerializable> clazz)
            throws HyracksDataException {
        return json != null ? deserialize(json) : fromJson(clazz, null);
    }

    /** {@code value} written with {@code toJson}, printed as text, parsed and read back. */
    IJsonSerializable roundTrip(IJsonSerializable value) throws Exception {
        String text = JSON.writeValueAsString(value.toJson(this));
        return deserialize(JSON.readTree(text));
    }

    private IJsonSerializable fromJson(Class<? extends IJsonSerializable> clazz, JsonNode json)
            throws HyracksDataException {
        try {
            Method m = clazz.getMethod("fromJson", IPersistedResourceRegistry.class, JsonNode.class);
            return (IJsonSerializable) m.invoke(null, this, json);
        } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
            throw HyracksDataException.create(e);
        }
    }
}
