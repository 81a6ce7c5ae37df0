/** Importing this module registers every baseline classifier (each file registers itself). */
export {};
