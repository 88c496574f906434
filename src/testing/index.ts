/**
 * Test doubles for agents built on tandem.
 * @packageDocumentation
 */
export {};
