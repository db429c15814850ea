/** A platform's module that embeds the merge policies. */
module example.modules {
    requires io.lsmpolicies.merge;
}
