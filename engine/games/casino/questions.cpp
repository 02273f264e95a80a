// SPDX-License-Identifier: AGPL-3.0-or-later
// CA-6.1 The built-in question set ("questions": "default"): one short,
// family-friendly question per card, in card index order (AS..KS, AH..KH,
// AD..KD, AC..KC). Spades ask about the past, hearts about people, diamonds about
// places and things, clubs about play and imagination.
#include "engine/games/casino/casino_game.h"

namespace casa::casino {

const QuestionSet& default_questions() {
  static const QuestionSet questions = {
      // Spades
      "What is the earliest thing you can remember?",
      "What game did you love most as a small child?",
      "Which teacher do you remember best, and why?",
      "What was your favourite meal when you were little?",
      "What is the best trip you have ever taken?",
      "What did you want to be when you grew up?",
      "Which song takes you straight back to a happy time?",
      "What is the funniest thing that ever happened at school?",
      "What was the best present you ever received?",
      "Which book or story stayed with you the longest?",
      "What is something you learned to do that made you proud?",
      "Which holiday tradition do you remember most fondly?",
      "If you could relive one ordinary day, which would it be?",
      // Hearts
      "Who always makes you laugh?",
      "Who taught you something you still use every day?",
      "What is the kindest thing a stranger has done for you?",
      "Which friend would you call first with good news?",
      "Who in your family are you most alike?",
      "What small thing makes you feel appreciated?",
      "Who would you like to thank that you never thanked?",
      "What do you admire most in the person on your left?",
      "Which famous person would you invite to dinner?",
      "What quality do you look for in a good friend?",
      "Who was your hero when you were young?",
      "What is the best advice anyone ever gave you?",
      "Which neighbour or pet made your street a better place?",
      // Diamonds
      "What is your favourite place in your home?",
      "Which city would you most like to visit?",
      "What object would you save from a flood?",
      "Where do you go when you want some quiet?",
      "What is the most beautiful view you have seen?",
      "What is the oldest thing you own?",
      "If you could live anywhere for a year, where would it be?",
      "Which shop could you spend hours in?",
      "What is your favourite thing to cook or bake?",
      "Which museum or park do you love most?",
      "What gadget could you not do without?",
      "What would your dream house have that others do not?",
      "Which landmark would you like to see at sunrise?",
      // Clubs
      "Which board or card game do you play best?",
      "If you had a superpower for one day, what would it be?",
      "Which animal would you like to be for an afternoon?",
      "What sport would you try if you could not fail?",
      "What would you name a new planet?",
      "Which fictional world would you like to visit?",
      "What hobby would you pick up with a free month?",
      "What would you put in a time capsule?",
      "What is your favourite way to spend a rainy day?",
      "If you could invent one holiday, what would it celebrate?",
      "Which musical instrument would you master overnight?",
      "What silly talent do you have?",
      "What would you do first as ruler of the world for a day?",
  };
  return questions;
}

}  // namespace casa::casino
