// The variant generator: a seed always draws the same variant, every variant
// is legal, and the seeds the tests judge reach the small ends of the limits
// and both answers of every open choice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { limitProblems } from '../../../contract/records.ts';
import { REFERENCE_CHOICES } from '../../domain/choices.ts';
import { drawVariant, parseVariantSeed } from '../draw-variant.ts';
import { FIXED_VARIANT_SEEDS } from './seeds.ts';

describe('drawVariant', () => {
  it('draws the same variant from the same seed, and others from others', () => {
    assert.deepEqual(drawVariant(42), drawVariant(42));
    assert.notDeepEqual(drawVariant(42), drawVariant(43));
  });

  it('draws only legal limits', () => {
    for (let seed = 0; seed < 500; seed++) assert.deepEqual(limitProblems(drawVariant(seed).limits), [], `seed ${seed}`);
  });

  it('refuses a seed that is not a 32-bit unsigned integer', () => {
    assert.throws(() => drawVariant(-1), RangeError);
    assert.throws(() => parseVariantSeed('12a'), RangeError);
    assert.throws(() => parseVariantSeed(String(2 ** 32)), RangeError);
    assert.equal(parseVariantSeed('4294967295'), 4294967295);
  });

  it('reaches the small ends of the limits, both kinds of page and step, and every answer of every choice across the fixed seeds', () => {
    const variants = FIXED_VARIANT_SEEDS.map(drawVariant);
    const some = (f: (v: (typeof variants)[number]) => boolean) => variants.some(f);
    assert.ok(
      some((v) => v.limits.max_page_size <= 7),
      'a page size of 1 to 7',
    );
    assert.ok(
      some((v) => v.limits.max_capabilities_per_version <= 8),
      'one to eight capabilities per version',
    );
    assert.ok(
      some((v) => v.limits.max_body_bytes <= 65_536 + 4096),
      'a body just above its smallest legal value',
    );
    assert.ok(
      some((v) => v.limits.max_expiry_batch <= 8),
      'a small lease-expiry batch',
    );
    assert.ok(
      some((v) => v.limits.max_page_size >= 50),
      'a page size of fifty or more',
    );
    assert.ok(
      some((v) => v.choices.pageFillPercent < 100) && some((v) => v.choices.pageFillPercent === 100),
      'pages filled in part and in full',
    );
    assert.ok(some((v) => v.choices.revisionStep === 1) && some((v) => v.choices.revisionStep > 1), 'a revision step of one and of more');
    for (const [name, reference] of Object.entries(REFERENCE_CHOICES)) {
      if (typeof reference === 'number') continue;
      const answers = new Set(variants.map((v) => String(v.choices[name as keyof typeof REFERENCE_CHOICES])));
      assert.ok(answers.size >= 2, `${name} takes more than one answer (${[...answers].join(', ')})`);
    }
  });
});
