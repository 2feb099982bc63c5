import { Box, createCloth, createRagdoll, HingeJoint, World } from 'footing';
import { CharacterController, Walker } from 'footing/character';

const world = new World();
world.createBody({ type: 'static', shape: new Box({ x: 30, y: 0.5, z: 30 }), position: { x: 0, y: -0.5, z: 0 } });

// A capsule character (radius 0.3, segment half-height 0.6) driven by the walker.
const character = new CharacterController(world, { radius: 0.3, halfHeight: 0.6, position: { x: 0, y: 1, z: 0 }, maxSlopeDegrees: 45, stepHeight: 0.3 });
const walker = new Walker(character, { speed: 4 });
walker.setInput(0, 0, 1); // walk along +z

// A door on a hinge with limits, a ragdoll, and a cloth banner.
const frame = world.createBody({ type: 'static', shape: new Box({ x: 0.05, y: 1, z: 0.05 }), position: { x: 3, y: 1, z: 0 } });
const door = world.createBody({ type: 'dynamic', shape: new Box({ x: 0.5, y: 1, z: 0.05 }), position: { x: 3.55, y: 1, z: 0 }, mass: 20 });
world.addJoint(new HingeJoint({ bodyA: frame, bodyB: door, anchor: { x: 3.05, y: 1, z: 0 }, axis: { x: 0, y: 1, z: 0 }, lowerAngle: -Math.PI / 2, upperAngle: Math.PI / 2 }));
const ragdoll = createRagdoll(world, { position: { x: -3, y: 3, z: 0 } });
createCloth(world, { width: 1, height: 1, segments: 8, pinned: 'top', position: { x: 0, y: 2, z: 6 } });

// One fixed step: physics first, then the character.
for (let i = 0; i < 120; i++) {
  world.step(1 / 60);
  walker.update(1 / 60);
}

export const characterExample = { characterZ: character.position.z, grounded: walker.state === 'grounded', ragdollBodies: ragdoll.bodies.length };
console.log(`character walked to z = ${character.position.z.toFixed(2)} (${walker.state}); ragdoll of ${ragdoll.bodies.length} bodies`);
