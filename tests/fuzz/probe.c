int LLVMFuzzerTestOneInput(const char *data, unsigned long size) { return data && size; }
