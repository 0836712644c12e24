export { canonicalIp, canonicalMac } from './addresses.js';
export { deriveCategory, mostSpecificCategory, type CategoryHints, type DerivedCategory } from './category.js';
export { displayHostname } from './hostnames.js';
export { canonicalManufacturer, foldManufacturer, recognizeVirtualMachine, type CanonicalManufacturer, type VirtualMachine } from './manufacturer.js';
export { lifecycleProductNames, OsLifecycle, phaseEnded, type LifecycleCycle, type LifecycleFacts, type LifecyclePhase, type OsRelease } from './lifecycle.js';
export { normalizeDeviceFields, normalizedFields, provenanceField, type NormalizationContext, type Provenance } from './normalizeDevice.js';
export { parseOperatingSystem, type OperatingSystem } from './operatingSystem.js';
