/**
 * The character controller and the Walker.
 * @module footing/character
 */
export * from '../../character/index';
