package io.lsmpolicies.asterix;

import io.lsmpolicies.merge.hyracks.StackMergePolicyFactory;
import java.rmi.RemoteException;
import java.util.ArrayList;
import java.util.List;
import org.apache.asterix.common.api.ExtensionId;
import org.apache.asterix.common.exceptions.ACIDException;
import org.apache.asterix.metadata.MetadataManager;
import org.apache.asterix.metadata.MetadataTransactionContext;
import org.apache.asterix.metadata.api.ExtensionMetadataDataset;
import org.apache.asterix.metadata.api.IMetadataExtension;
import org.apache.asterix.metadata.entities.CompactionPolicy;
import org.apache.asterix.metadata.entitytupletranslators.MetadataTupleTranslatorProvider;
import org.apache.asterix.metadata.utils.MetadataConstants;
import org.apache.hyracks.algebricks.common.exceptions.AlgebricksException;
import org.apache.hyracks.algebricks.common.utils.Pair;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * An AsterixDB 0.9.8 metadata extension that files our merge policies in {@code Metadata.CompactionPolicy}, so
 * that {@code CREATE DATASET ... WITH {"merge-policy": {"name": "lsmpolicies-binomial", ...}}} finds them.
 * AsterixDB fills that dataset at its first start with its built-in factories only.
 *
 * <p>Enabled by the {@code cc.conf} section {@value #CC_CONF_SECTION} holding at least one key, by convention
 * {@code enabled=true}. AsterixDB then creates an instance on the CC and on every NC. The key is needed because
 * the CC ships its configuration to the NCs key by key ({@code ConfigManager.toIni}), so an empty section never
 * reaches them; its value is never read, because AsterixDB 0.9.8 passes no key of an extension's section to
 * {@link #configure} (it lists only registered options, and none are registered for extension sections).
 *
 * <p>Contract of {@link #initializeMetadata} (called by AsterixDB on the metadata node at every start, after the
 * metadata bootstrap and DDL recovery): for each factory of {@link LsmPolicyFactories#ALL}, in one metadata
 * transaction, inserts the row (dataverse {@code Metadata}, name = the factory's {@code getName()}, class = its
 * class name) if no row of that name exists; a row already there with our class name is left as it is, so a
 * restart changes nothing. Rows are never deleted (datasets may still name them).
 *
 * <p>The extension claims no other extension point: it adds no metadata datasets, and returns {@code null} for
 * the tuple-translator provider and the metadata-provider factory, so AsterixDB keeps its own. Beside another
 * metadata extension that does supply one of them, AsterixDB 0.9.8 starts only if it meets that one after ours:
 * it refuses any metadata extension that follows one which supplied them (EXTENSION_COMPONENT_CONFLICT), and its
 * order of extensions is that of a {@code HashSet} of section names.
 */
public class LsmPoliciesMetadataExtension implements IMetadataExtension {
    private static final Logger LOGGER = LogManager.getLogger();

    /** The {@code cc.conf} section that enables the extension. */
    public static final String CC_CONF_SECTION = "[extension/io.lsmpolicies.asterix.LsmPoliciesMetadataExtension]";

    /** The extension's id; AsterixDB refuses two extensions with the same id. */
    public static final ExtensionId ID = new ExtensionId("lsmpolicies-merge-policies", 1);

    @Override
    public ExtensionId getId() {
        return ID;
    }

    /**
     * Accepts the section's key-value pairs, which AsterixDB 0.9.8 leaves empty (see the class comment); the
     * extension has no settings, so any pair a later AsterixDB might pass is only logged.
     */
    @Override
    public void configure(List<Pair<String, String>> args) {
        if (!args.isEmpty()) {
            LOGGER.info("lsmpolicies: the extension has no settings; ignoring {}", args);
        }
    }

    /** {@code null}: AsterixDB's own translators read and write every metadata record. */
    @Override
    public MetadataTupleTranslatorProvider getMetadataTupleTranslatorProvider() {
        return null;
    }

    /** None: the rows go into AsterixDB's own {@code CompactionPolicy} dataset. */
    @SuppressWarnings("rawtypes")
    @Override
    public List<ExtensionMetadataDataset> getExtensionIndexes() {
        return List.of();
    }

    /**
     * Inserts the missing {@code CompactionPolicy} rows, all in one metadata transaction.
     *
     * @throws HyracksDataException if a row of one of our names names another class (the dataset would not run
     *                              our policy), or the metadata transaction fails; AsterixDB then does not start
     */
    @Override
    public void initializeMetadata(INCServiceContext ncServiceCtx)
            throws HyracksDataException, RemoteException, ACIDException {
        MetadataTransactionContext txn = MetadataManager.INSTANCE.beginTransaction();
        List<String> inserted = new ArrayList<>();
        try {
            for (Class<? extends StackMergePolicyFactory> factory : LsmPolicyFactories.ALL) {
                String name = LsmPolicyFactories.policyName(factory);
                CompactionPolicy row = MetadataManager.INSTANCE.getCompactionPolicy(txn,
                        MetadataConstants.METADATA_DATAVERSE_NAME, name);
                if (row == null) {
                    MetadataManager.INSTANCE.addCompactionPolicy(txn,
                            new CompactionPolicy(MetadataConstants.METADATA_DATAVERSE_NAME, name, factory.getName()));
                    inserted.add(name);
                } else if (!row.getClassName().equals(factory.getName())) {
                    throw new IllegalStateException("Metadata.CompactionPolicy '" + name + "' names class "
                            + row.getClassName() + ", not " + factory.getName()
                            + "; datasets created with it would not run our policy");
                }
            }
            MetadataManager.INSTANCE.commitTransaction(txn);
        } catch (AlgebricksException | RuntimeException e) {
            try {
                MetadataManager.INSTANCE.abortTransaction(txn);
            } catch (RemoteException | RuntimeException abort) {
                e.addSuppressed(abort);
            }
            throw HyracksDataException.create(e);
        }
        LOGGER.info("lsmpolicies: Metadata.CompactionPolicy rows inserted: {} (of {})", inserted,
                LsmPolicyFactories.ALL.size());
    }

    @Override
    public String toString() {
        return "LsmPoliciesMetadataExtension(" + ID + ")";
    }
}
