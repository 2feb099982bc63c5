/**
 * Mass properties from a density or from a total mass.
 */
import type { ConvexShape, MassProperties } from './shape';
import { requirePositive } from './shape';

/** Mass properties of `shape` at `density` kg/m³ (> 0). */
export function massFromDensity(shape: ConvexShape, density: number): MassProperties {
  requirePositive(density, 'density');
  return shape.massProperties(density);
}

/** Mass properties of `shape` scaled to a total `mass` kg (> 0), uniform density. */
export function massFromMass(shape: ConvexShape, mass: number): MassProperties {
  requirePositive(mass, 'mass');
  const props = shape.massProperties(1);
  const k = mass / props.mass;
  props.mass = mass;
  props.inertia.x *= k;
  props.inertia.y *= k;
  props.inertia.z *= k;
  return props;
}
