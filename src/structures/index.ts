/** Importing this module registers every structure learner. */
export * from './nb.js';
export * from './tan.js';
export * from './hill-climb.js';
export * from './sparse-candidate.js';
export * from './cl-ode.js';
export * from './fan-mdl.js';
export * from './tan-hc.js';
export * from './tan-hcsp.js';
export * from './fssj.js';
export * from './bsej.js';
export * from './kdb-hc.js';
export * from './kdb.js';
export * from './skdb.js';
export * from './aode.js';
export * from './exact/index.js';
