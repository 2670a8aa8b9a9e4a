export { AlwaysAdmitAdmission } from './always-admit.js';
export { AlwaysDenyAdmission } from './always-deny.js';
