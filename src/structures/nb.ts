/** Naive Bayes: the class is the only parent of every attribute. */
import { defineParams, registerStructure } from '../registry.js';
import { attributeCount } from '../bn/data.js';
import { naiveBayesStructure } from '../bn/structure.js';

export const nb = registerStructure({
  id: 'nb',
  revision: 1,
  title: 'Naive Bayes',
  citation:
    'Duda & Hart (1973), Pattern Classification and Scene Analysis; Langley, Iba & Thompson (1992), ' +
    'An analysis of Bayesian classifiers, AAAI',
  params: defineParams({}),
  traits: ['naive-bayes'],
  learn(train) {
    const m = attributeCount(train);
    return { ...naiveBayesStructure(m), info: { arcs: m } };
  },
});
